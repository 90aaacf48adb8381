// RSI mean reversion: buy when the RSI of closes drops below `oversold` while flat; close the position once the RSI recovers above `exit`.
import { filter, map, pairwise } from 'rxjs';
import { z } from 'zod';
import { defineStrategy, rsi, type OrderIntent } from 'longport-trader';

export default defineStrategy({
  name: 'rsi-mean-reversion',
  description: 'Buys an oversold dip (RSI crossing below `oversold`) and sells the recovery (RSI above `exit`).',
  params: { period: 14, oversold: 30, exit: 55, quantity: 100 },
  paramsSchema: z
    .strictObject({
      period: z.number().int().min(2),
      oversold: z.number().min(0).max(100),
      exit: z.number().min(0).max(100),
      quantity: z.number().positive(),
    })
    .refine((params) => params.oversold < params.exit, { message: 'oversold must be below exit', path: ['oversold'] }),
  symbols: ['SPX.US'],
  period: 'day',
  // The RSI's first value needs period + 1 closes, but Wilder's smoothing remembers where it started: after
  // n closes a share (1 - 1/period)^n of that is left. Twenty periods leave under one part in a billion at
  // period 14, so a live run decides as one warmed up on all the history would (trader check: warm-up).
  warmup: (params) => params.period * 20 + 1,
  run: (ctx) => {
    const { period, oversold, exit, quantity } = ctx.params;
    return ctx.candles().pipe(
      rsi(period),
      pairwise(),
      map(([previous, current]): OrderIntent | undefined => {
        const flat = ctx.positions.quantity().isZero();
        if (flat && previous >= oversold && current < oversold)
          return ctx.buy(quantity, { reason: `RSI ${current.toFixed(1)} crossed below ${oversold}` });
        if (!flat && current > exit) return ctx.close({ reason: `RSI ${current.toFixed(1)} recovered above ${exit}` });
        return undefined;
      }),
      filter((intent): intent is OrderIntent => intent !== undefined),
    );
  },
});
