// Donchian breakout with a trailing ATR stop: buy when a close breaks above the highest high of the previous `lookback` bars; close when a close falls below the stop (`stopAtr` ATRs under the best close since entry).
import { ATR, DonchianChannels } from 'trading-signals';
import { defineStrategy } from 'longport-trader';

interface SymbolState {
  readonly channel: DonchianChannels;
  readonly range: ATR;
  /** The trailing stop while in a trade (set on entry, so a pending entry order is not bought twice). */
  stop: number | undefined;
}

export default defineStrategy({
  name: 'breakout',
  description: 'Buys a close above the previous N-bar high; exits on a trailing stop of K average true ranges, checked on closes.',
  params: { lookback: 20, atrPeriod: 14, stopAtr: 2, quantity: 100 },
  symbols: ['SPX.US'],
  period: 'day',
  // The channel of the previous `lookback` bars must be full when a bar breaks out, and the ATR (Wilder's
  // smoothing, which remembers where it started: (1 - 1/period)^n of it after n bars) settled, so the stop
  // does not depend on how much history a run had (trader check: warm-up).
  warmup: (params) => Math.max(params.lookback, params.atrPeriod * 20) + 1,
  init: () => new Map<string, SymbolState>(),
  onCandle(candle, ctx, states) {
    let state = states.get(candle.symbol);
    if (state === undefined) {
      state = { channel: new DonchianChannels(ctx.params.lookback), range: new ATR(ctx.params.atrPeriod), stop: undefined };
      states.set(candle.symbol, state);
    }
    const previousHigh = state.channel.getResult()?.upper;
    state.channel.add(candle);
    const atr = state.range.add(candle);
    // On history bars an entry would be dropped, yet its stop would stay: only the indicators learn from them.
    if (ctx.warmingUp) return undefined;
    if (state.stop === undefined) {
      if (previousHigh === undefined || atr === null || candle.close <= previousHigh) return undefined;
      state.stop = candle.close - ctx.params.stopAtr * atr;
      return ctx.buy(ctx.params.quantity, { symbol: candle.symbol, reason: `close ${candle.close} broke above ${previousHigh}` });
    }
    if (candle.close < state.stop) {
      const stop = state.stop;
      state.stop = undefined;
      return ctx.close({ symbol: candle.symbol, reason: `close ${candle.close} fell below the stop ${stop.toFixed(4)}` });
    }
    if (atr !== null) state.stop = Math.max(state.stop, candle.close - ctx.params.stopAtr * atr);
    return undefined;
  },
});
