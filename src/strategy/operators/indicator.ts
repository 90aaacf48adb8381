// RxJS operators over streaming indicators of trading-signals: one indicator instance per subscription,
// fed one value per input, emitting its result once it is stable. No indicator math lives here.
import { Observable, type OperatorFunction } from 'rxjs';
import { ATR, DonchianChannels, EMA, RSI, type DonchianChannelsResult } from 'trading-signals';
import { InvalidInputError, type Candle } from '../../domain/index.js';
import { operate } from './operate.js';
import { RollingMean } from './rolling-mean.js';

/** The part of a trading-signals indicator the operators use. */
export interface StreamingIndicator<Input, Result> {
  add(input: Input): Result | null;
  readonly isStable: boolean;
}

export type Price = Candle | number;

/** The close of a candle, or the number itself. */
export function closeOf(value: Price): number {
  // `+value` makes both branches a raw float: merged with a tagged `value`, the candle's close would be
  // boxed into a new heap number on every bar.
  return typeof value === 'number' ? +value : value.close;
}

/**
 * Feeds each value (through `input`) to a fresh indicator made by `create` per subscription and emits its
 * result once stable. Build your own: `indicator(() => new WMA(20), closeOf)`.
 */
export function indicator<T, Input, Result>(
  create: () => StreamingIndicator<Input, Result>,
  input: (value: T) => Input,
): OperatorFunction<T, Result> {
  return (source) =>
    new Observable<Result>((subscriber) => {
      const state = create();
      return operate(source, subscriber, (value) => {
        const result = state.add(input(value));
        if (result !== null && state.isStable) subscriber.next(result);
      });
    });
}

export function checkInterval(interval: number, name: string): number {
  if (!Number.isInteger(interval) || interval < 1)
    throw new InvalidInputError(`${name} interval must be a positive whole number, got ${interval}`, name);
  return interval;
}

/** Simple moving average of closes: the exact mean, rounded once (equal windows give equal averages). */
export function sma(interval: number): OperatorFunction<Price, number> {
  checkInterval(interval, 'sma');
  return (source) =>
    new Observable<number>((subscriber) => {
      const mean = new RollingMean(interval);
      return operate(source, subscriber, (value) => {
        if (mean.add(closeOf(value))) subscriber.next(mean.mean);
      });
    });
}

/** Exponential moving average of closes. */
export function ema(interval: number): OperatorFunction<Price, number> {
  checkInterval(interval, 'ema');
  return indicator(() => new EMA(interval), closeOf);
}

/** Relative strength index (0–100) of closes. */
export function rsi(interval: number): OperatorFunction<Price, number> {
  checkInterval(interval, 'rsi');
  return indicator(() => new RSI(interval), closeOf);
}

/** Average true range of candles, in price units. */
export function atr(interval: number): OperatorFunction<Candle, number> {
  checkInterval(interval, 'atr');
  return indicator(
    () => new ATR(interval),
    (candle: Candle) => candle,
  );
}

/** Donchian channel (highest high, lowest low, midpoint) over the last `interval` candles, this one included. */
export function donchian(interval: number): OperatorFunction<Candle, DonchianChannelsResult> {
  checkInterval(interval, 'donchian');
  return indicator(
    () => new DonchianChannels(interval),
    (candle: Candle) => candle,
  );
}
