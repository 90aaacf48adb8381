// Indicators for callback strategies (no RxJS): objects with update() and a value, over trading-signals'
// streaming indicators and, for the SMA, the operators' exact rolling mean (ties decided exactly).
// `indicators.sma(20)` in init(), `state.sma.update(candle)` in onCandle(), then `state.sma.value`
// (undefined until the indicator has seen enough bars). No indicator math lives here.
import {
  ATR,
  BollingerBands,
  DonchianChannels,
  EMA,
  MACD,
  RSI,
  type BandsResult,
  type DonchianChannelsResult,
  type MACDResult,
} from 'trading-signals';
import type { Candle } from '../domain/index.js';
import { closeOf, type Price } from './operators/closes.js';
import { checkInterval, type StreamingIndicator } from './operators/indicator.js';
import { RollingMean } from './operators/rolling-mean.js';

/** A streaming indicator: feed it one bar at a time (`In`: a candle, or a candle or number); `value` is its latest stable result. */
export class Indicator<In, Result> {
  /** The latest result once the indicator is stable (enough bars seen); undefined before. */
  value: Result | undefined = undefined;
  /** Bars fed so far. */
  count = 0;

  constructor(private readonly feed: (value: In) => Result | undefined) {}

  /** Takes the next bar; returns the new value, or undefined while the indicator is not yet stable. */
  update(value: In): Result | undefined {
    this.count += 1;
    this.value = this.feed(value);
    return this.value;
  }

  /** True once `value` is defined. */
  get ready(): boolean {
    return this.value !== undefined;
  }
}

function over<In, X, Result>(inner: StreamingIndicator<X, Result>, input: (value: In) => X): Indicator<In, Result> {
  return new Indicator((value: In) => {
    const result = inner.add(input(value));
    return result !== null && inner.isStable ? result : undefined;
  });
}

const candle = (value: Candle): Candle => value;

/** The exact mean of the last `interval` closes, as the `sma` operator has it (equal windows, equal means). */
function exactSma(interval: number): Indicator<Price, number> {
  const mean = new RollingMean(interval);
  const slot = new Float64Array(1);
  return new Indicator((value: Price) => {
    slot[0] = closeOf(value);
    return mean.add(slot, 0) ? mean.mean : undefined;
  });
}

/** Factories of the indicators strategies use most; any other trading-signals indicator via `custom`. */
export const indicators = {
  /** Simple moving average of closes: the exact mean, rounded once (a flat window's mean is its close). */
  sma: (interval: number) => exactSma(checkInterval(interval, 'sma')),
  /** Exponential moving average of closes. */
  ema: (interval: number) => over(new EMA(checkInterval(interval, 'ema')), closeOf),
  /** Relative strength index (0–100) of closes. */
  rsi: (interval: number) => over(new RSI(checkInterval(interval, 'rsi')), closeOf),
  /** MACD of closes: { macd, signal, histogram }. */
  macd: (fast = 12, slow = 26, signal = 9): Indicator<Price, MACDResult> =>
    over(
      new MACD(
        new EMA(checkInterval(fast, 'macd fast')),
        new EMA(checkInterval(slow, 'macd slow')),
        new EMA(checkInterval(signal, 'macd signal')),
      ),
      closeOf,
    ),
  /** Bollinger bands of closes: { lower, middle, upper }, `deviations` standard deviations wide. */
  bollinger: (interval: number, deviations = 2): Indicator<Price, BandsResult> =>
    over(new BollingerBands(checkInterval(interval, 'bollinger'), deviations), closeOf),
  /** Average true range of candles, in price units. */
  atr: (interval: number): Indicator<Candle, number> => over(new ATR(checkInterval(interval, 'atr')), candle),
  /** Donchian channel (highest high, lowest low, middle) over the last `interval` candles, this one included. */
  donchian: (interval: number): Indicator<Candle, DonchianChannelsResult> =>
    over(new DonchianChannels(checkInterval(interval, 'donchian')), candle),
  /** Any trading-signals indicator fed closes: `indicators.custom(new WMA(20))`. */
  custom: <Result>(inner: StreamingIndicator<number, Result>): Indicator<Price, Result> => over(inner, closeOf),
};
