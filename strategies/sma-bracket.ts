// SMA trend with a bracket: a callback strategy (no RxJS) that puts `percent` of equity in when the close
// rises above its SMA, with a stop-loss, a take-profit and a trailing stop the runtime places and drops, and
// closes on a close below the SMA. Tags tell the exits apart in the summary, the JSON and the report.
import { defineStrategy, indicators } from 'longport-trader';

export default defineStrategy({
  name: 'sma-bracket',
  description: 'Buys a share of equity on a close above the SMA, with stop-loss, take-profit and trailing stop.',
  params: { sma: 50, percent: 0.5, stopLoss: 0.03, takeProfit: 0.15, trailingStop: 0.08 },
  symbols: ['SPX.US'],
  period: 'day',
  warmup: (params) => params.sma,
  init: (ctx) => ({ average: indicators.sma(ctx.params.sma), above: false }),
  onCandle(candle, ctx, state) {
    const average = state.average.update(candle);
    if (average === undefined) return undefined;
    const wasAbove = state.above;
    state.above = candle.close > average;
    const held = !ctx.positions.quantity(candle.symbol).isZero();
    if (state.above && !wasAbove && !held && !ctx.warmingUp)
      return ctx.targetPercent(ctx.params.percent, {
        symbol: candle.symbol,
        tag: 'trend-entry',
        exits: {
          stopLoss: { percent: ctx.params.stopLoss },
          takeProfit: { percent: ctx.params.takeProfit },
          trailingStop: { percent: ctx.params.trailingStop },
        },
      });
    if (!state.above && wasAbove && held) return ctx.close({ symbol: candle.symbol, tag: 'below-sma' });
    return undefined;
  },
});
