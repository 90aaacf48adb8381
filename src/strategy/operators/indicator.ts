// RxJS operators over streaming indicators of trading-signals: one indicator instance per subscription,
// fed one value per input, emitting its result once it is stable. No indicator math lives here.
import { Observable, type OperatorFunction } from 'rxjs';
import { ATR, DonchianChannels, EMA, RSI, type DonchianChannelsResult } from 'trading-signals';
import { InvalidInputError, type Candle } from '../../domain/index.js';
import { subscribeCloses, type Price } from './closes.js';
import { operate } from './operate.js';
import { RollingMean } from './rolling-mean.js';

/** The part of a trading-signals indicator the operators use. */
export interface StreamingIndicator<Input, Result> {
  add(input: Input): Result | null;
  readonly isStable: boolean;
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
      return subscribeCloses(source, subscriber, (closes, at) => {
        if (mean.add(closes, at)) subscriber.next(mean.mean);
      });
    });
}

/** Exponential moving average of closes. */
export function ema(interval: number): OperatorFunction<Price, number> {
  checkInterval(interval, 'ema');
  return indicatorOfCloses(() => new EMA(interval));
}

/** Relative strength index (0–100) of closes. */
export function rsi(interval: number): OperatorFunction<Price, number> {
  checkInterval(interval, 'rsi');
  return indicatorOfCloses(() => new RSI(interval));
}

/** `indicator(create, closeOf)`, reading closes from a stream's bar form when it has one. */
function indicatorOfCloses<Result>(create: () => StreamingIndicator<number, Result>): OperatorFunction<Price, Result> {
  return (source) =>
    new Observable<Result>((subscriber) => {
      const state = create();
      return subscribeCloses(source, subscriber, (closes, at) => {
        const result = state.add(closes[at]!);
        if (result !== null && state.isStable) subscriber.next(result);
      });
    });
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
