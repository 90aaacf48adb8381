// A strategy for exit tests: throws on its first quote (the only strategy of the run then has failed).
import { map } from 'rxjs';
import { defineStrategy } from '../../../../src/strategy/index.js';

export default defineStrategy({
  name: 'throw-on-quote',
  params: {},
  symbols: ['AAPL.US'],
  period: '1m',
  run: (ctx) =>
    ctx.quotes().pipe(
      map(() => {
        throw new Error('boom on the first quote');
      }),
    ),
});
