// The SMA crossover, writing a line to the file $TRADER_TEST_MARKS each time a run starts: a test can see
// how many trials have started without a progress bar.
import { appendFileSync } from 'node:fs';
import { map } from 'rxjs';
import { crossover, defineStrategy } from '../../../src/strategy/index.js';

export default defineStrategy({
  name: 'marks-runs',
  params: { fast: 10, slow: 30 },
  symbols: ['SPX.US'],
  period: 'day',
  warmup: (params) => params.slow + 1,
  run: (ctx) => {
    const marks = process.env['TRADER_TEST_MARKS'];
    if (marks !== undefined) appendFileSync(marks, `${ctx.params.fast} ${ctx.params.slow}\n`);
    return ctx.candles().pipe(
      crossover(ctx.params.fast, ctx.params.slow),
      map((cross) => (cross === 'up' ? ctx.buy(100) : ctx.close())),
    );
  },
});
