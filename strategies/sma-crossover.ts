// SMA crossover: buy `quantity` at market when the fast SMA of closes crosses above the slow one, close the whole position when it crosses below.
import { map } from 'rxjs';
import { z } from 'zod';
import { crossover, defineStrategy } from 'longport-trader';

export default defineStrategy({
  name: 'sma-crossover',
  description: 'Buys when the fast SMA of closes crosses above the slow SMA; closes the position on the cross below.',
  params: { fast: 10, slow: 30, quantity: 100 },
  paramsSchema: z
    .strictObject({ fast: z.number().int().positive(), slow: z.number().int().positive(), quantity: z.number().positive() })
    .refine((params) => params.fast < params.slow, { message: 'fast must be shorter than slow', path: ['fast'] }),
  symbols: ['SPX.US'],
  period: 'day',
  // The slow SMA's bars, plus one for the previous spread a cross is measured against.
  warmup: (params) => params.slow + 1,
  run: (ctx) =>
    ctx.candles().pipe(
      crossover(ctx.params.fast, ctx.params.slow),
      map((cross) =>
        cross === 'up'
          ? ctx.buy(ctx.params.quantity, { reason: 'fast SMA crossed above slow', tag: 'golden-cross' })
          : ctx.close({ reason: 'fast SMA crossed below slow', tag: 'death-cross' }),
      ),
    ),
});
