// A strategy's candle stream warmed up from history: the live stream is subscribed first (its bars are held
// while history loads, so none is lost), then the history bars are played, then the held and later live
// bars, minus any at or before the last history bar (so none is doubled). A history failure is reported and
// the stream goes on cold: a warm-up never takes a strategy down.
import { Observable } from 'rxjs';
import { type BarColumns, type BarSink, type BarStream, barStreamOf } from '../domain/bar-stream.js';
import type { Candle } from '../domain/candle.js';
import { columnsOf } from '../feeds/history/candle-columns.js';
import { CandlesInBars } from './candles-in-bars.js';

export type WarmUpOutcome = { readonly kind: 'warmed'; readonly bars: number } | { readonly kind: 'failed'; readonly error: unknown };

export interface WarmUpHooks {
  /** Around the synchronous play of the history bars: intents made meanwhile are decisions about the past. */
  replaying(active: boolean): void;
  /** Once per subscription: settles when the history has been played (or failed) and the stream is live. */
  loading(settled: Promise<void>): void;
  /** When the stream goes live (not called when unsubscribed before history came). */
  done(outcome: WarmUpOutcome): void;
}

export function warmedUp(live: Observable<Candle>, loadHistory: () => Promise<readonly Candle[]>, hooks: WarmUpHooks): Observable<Candle> {
  const objects = warmedUpCandles(live, loadHistory, hooks);
  const bars = barStreamOf(live);
  return bars === undefined ? objects : new CandlesInBars(objects, (sink) => warmedUpBars(bars, loadHistory, hooks, sink));
}

function warmedUpCandles(live: Observable<Candle>, loadHistory: () => Promise<readonly Candle[]>, hooks: WarmUpHooks): Observable<Candle> {
  return new Observable<Candle>((subscriber) => {
    let held: Candle[] | undefined = [];
    let lastHistoryTime = Number.NEGATIVE_INFINITY;
    const pass = (candle: Candle): void => {
      if (candle.time > lastHistoryTime) subscriber.next(candle);
    };
    const subscription = live.subscribe({
      next(candle) {
        if (held === undefined) pass(candle);
        else held.push(candle);
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        if (held === undefined) subscriber.complete();
      },
    });
    const goLive = (outcome: WarmUpOutcome): void => {
      const pending = held ?? [];
      held = undefined;
      hooks.done(outcome);
      for (const candle of pending) pass(candle);
      if (subscription.closed) subscriber.complete();
    };
    // A history function that throws at once fails the same way as one whose promise rejects.
    const settled = new Promise<readonly Candle[]>((resolve) => resolve(loadHistory())).then(
      (history) => {
        if (subscriber.closed) return;
        hooks.replaying(true);
        try {
          for (const candle of history) {
            subscriber.next(candle);
            lastHistoryTime = Math.max(lastHistoryTime, candle.time);
          }
        } finally {
          hooks.replaying(false);
        }
        goLive({ kind: 'warmed', bars: history.length });
      },
      (error: unknown) => {
        if (!subscriber.closed) goLive({ kind: 'failed', error });
      },
    );
    hooks.loading(settled);
    return subscription;
  });
}

/** The same in bar form: live bars held as (columns, index) pairs, the history handed over as columns. */
function warmedUpBars(
  live: BarStream,
  loadHistory: () => Promise<readonly Candle[]>,
  hooks: WarmUpHooks,
  sink: BarSink,
): { unsubscribe(): void } {
  let held: (BarColumns | number)[] | undefined = [];
  let lastHistoryTime = Number.NEGATIVE_INFINITY;
  let liveEnded = false;
  let unsubscribed = false;
  const pass = (columns: BarColumns, at: number): void => {
    if (columns.time[at]! > lastHistoryTime) sink.bar(columns, at);
  };
  const subscription = live.subscribeBars({
    bar(columns, at) {
      if (held === undefined) pass(columns, at);
      else held.push(columns, at);
    },
    error: (error) => sink.error(error),
    complete() {
      liveEnded = true;
      if (held === undefined) sink.complete();
    },
  });
  const goLive = (outcome: WarmUpOutcome): void => {
    const pending = held ?? [];
    held = undefined;
    hooks.done(outcome);
    for (let index = 0; index < pending.length; index += 2) pass(pending[index] as BarColumns, pending[index + 1] as number);
    if (liveEnded) sink.complete();
  };
  const settled = new Promise<readonly Candle[]>((resolve) => resolve(loadHistory())).then(
    (history) => {
      if (unsubscribed) return;
      hooks.replaying(true);
      try {
        if (history.length > 0) {
          const columns = columnsOf(history, { symbol: history[0]!.symbol, period: history[0]!.period, source: 'history' });
          for (let at = 0; at < columns.length; at += 1) {
            sink.bar(columns, at);
            lastHistoryTime = Math.max(lastHistoryTime, columns.time[at]!);
          }
        }
      } finally {
        hooks.replaying(false);
      }
      goLive({ kind: 'warmed', bars: history.length });
    },
    (error: unknown) => {
      if (!unsubscribed) goLive({ kind: 'failed', error });
    },
  );
  hooks.loading(settled);
  return {
    unsubscribe() {
      unsubscribed = true;
      subscription.unsubscribe();
    },
  };
}
