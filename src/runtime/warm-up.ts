// A strategy's candle stream warmed up from history: the live stream is subscribed first (its bars are held
// while history loads, so none is lost), then the history bars are played, then the held and later live
// bars, minus any at or before the last history bar (so none is doubled). A history failure is reported and
// the stream goes on cold: a warm-up never takes a strategy down.
import { Observable } from 'rxjs';
import { type BarColumns, barStreamOf } from '../domain/bar-stream.js';
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
  const objects = new Observable<Candle>((subscriber) =>
    warmUp<Candle>(
      {
        live(next, error, complete) {
          const subscription = live.subscribe({ next: (candle) => next(candle, 0), error, complete });
          return () => subscription.unsubscribe();
        },
        history(history, next) {
          for (const candle of history) next(candle, 0);
        },
        timeOf: (candle) => candle.time,
        next: (candle) => subscriber.next(candle),
        error: (error) => subscriber.error(error),
        complete: () => subscriber.complete(),
      },
      loadHistory,
      hooks,
    ),
  );
  const bars = barStreamOf(live);
  if (bars === undefined) return objects;
  // In bar form the history is handed over as columns, and live bars as their places in theirs.
  return new CandlesInBars(objects, (sink) => ({
    unsubscribe: warmUp<BarColumns>(
      {
        live(next, error, complete) {
          const subscription = bars.subscribeBars({ bar: next, error, complete });
          return () => subscription.unsubscribe();
        },
        history(history, next) {
          if (history.length === 0) return;
          const columns = columnsOf(history, { symbol: history[0]!.symbol, period: history[0]!.period, source: 'history' });
          for (let at = 0; at < columns.length; at += 1) next(columns, at);
        },
        timeOf: (columns, at) => columns.time[at]!,
        next: (columns, at) => sink.bar(columns, at),
        error: (error) => sink.error(error),
        complete: () => sink.complete(),
      },
      loadHistory,
      hooks,
    ),
  }));
}

/** How a warm-up takes and hands on bars: (value, at) is a Candle (at unused) or a place in columns. */
interface WarmUpLane<Value> {
  /** Subscribes to the live bars; returns the unsubscribe. */
  live(next: (value: Value, at: number) => void, error: (error: unknown) => void, complete: () => void): () => void;
  /** Plays the history bars through `next`. */
  history(history: readonly Candle[], next: (value: Value, at: number) => void): void;
  timeOf(value: Value, at: number): number;
  next(value: Value, at: number): void;
  error(error: unknown): void;
  complete(): void;
}

/** Runs a warm-up through `lane`; returns the unsubscribe. */
function warmUp<Value>(lane: WarmUpLane<Value>, loadHistory: () => Promise<readonly Candle[]>, hooks: WarmUpHooks): () => void {
  // Live bars that came while history loads, as value, place, value, place…
  let held: (Value | number)[] | undefined = [];
  let lastHistoryTime = Number.NEGATIVE_INFINITY;
  let liveEnded = false;
  let unsubscribed = false;
  const pass = (value: Value, at: number): void => {
    if (lane.timeOf(value, at) > lastHistoryTime) lane.next(value, at);
  };
  const stopLive = lane.live(
    (value, at) => {
      if (held === undefined) pass(value, at);
      else held.push(value, at);
    },
    (error) => lane.error(error),
    () => {
      liveEnded = true;
      if (held === undefined) lane.complete();
    },
  );
  const goLive = (outcome: WarmUpOutcome): void => {
    const pending = held ?? [];
    held = undefined;
    hooks.done(outcome);
    for (let index = 0; index < pending.length; index += 2) pass(pending[index] as Value, pending[index + 1] as number);
    if (liveEnded) lane.complete();
  };
  // A history function that throws at once fails the same way as one whose promise rejects.
  const settled = new Promise<readonly Candle[]>((resolve) => resolve(loadHistory())).then(
    (history) => {
      if (unsubscribed) return;
      hooks.replaying(true);
      try {
        lane.history(history, (value, at) => {
          lane.next(value, at);
          lastHistoryTime = Math.max(lastHistoryTime, lane.timeOf(value, at));
        });
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
  return () => {
    unsubscribed = true;
    stopLive();
  };
}
