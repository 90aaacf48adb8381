// Live candles of one symbol and period from quote pushes. A bar closes when a tick of a later bar arrives
// or when the estimated market time passes the bar's end plus a grace. The service's candlesticks (cmd 19)
// give the bar under way when the stream starts (what traded in it before we subscribed) and fill the gap a
// reconnect left; ticks wait while they are asked, and those that came before the answer are in it already.
import { Observable } from 'rxjs';
import type { Candle } from '../../domain/candle.js';
import type { Clock, TimerHandle } from '../../domain/clock.js';
import { isIntraday, periodMinutes, type Period } from '../../domain/period.js';
import type { Quote } from '../../domain/quote.js';
import { marketOf, type SecuritySymbol } from '../../domain/symbol.js';
import { silentLogger, type Logger } from '../../log/logger.js';
import { barWindow } from './bar-window.js';
import { CandleAggregator } from './candle-aggregator.js';
import type { LiveQuoteSource } from './live-source.js';
import type { MarketTime } from './market-time.js';

export interface LiveCandleOptions {
  readonly clock: Clock;
  readonly marketTime: MarketTime;
  /** Wait after an intraday bar's end for late ticks; 2 s by default. */
  readonly graceMs?: number;
  /** Wait after the regular close before a day (or longer) bar closes: covers closing auctions. 15 min by default. */
  readonly dayGraceMs?: number;
  /** Count pre-market, post-market and overnight ticks (the service's regular candles leave them out). */
  readonly extendedHours?: boolean;
  readonly logger?: Logger;
}

const MAX_BACKFILL_BARS = 1000;
/** Latest bars asked for as the stream starts: the one under way, and the one before in case it has not closed yet. */
const SEED_BARS = 2;
const CALENDAR_PERIOD_MS: Partial<Record<Period, number>> = {
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 28 * 86_400_000,
  quarter: 90 * 86_400_000,
  year: 365 * 86_400_000,
};

/** Bars to ask for so that the answer reaches back to `since`. */
export function backfillCount(period: Period, since: number, now: number): number {
  const barMs = isIntraday(period) ? periodMinutes(period)! * 60_000 : CALENDAR_PERIOD_MS[period]!;
  return Math.min(MAX_BACKFILL_BARS, Math.ceil(Math.max(0, now - since) / barMs) + 2);
}

/** How long after a bar's end it counts as closed (late ticks, closing auctions). */
export function closeGraceMs(period: Period, options: Pick<LiveCandleOptions, 'graceMs' | 'dayGraceMs'>): number {
  return isIntraday(period) ? (options.graceMs ?? 2_000) : (options.dayGraceMs ?? 15 * 60_000);
}

export function liveCandles(
  source: LiveQuoteSource,
  symbol: SecuritySymbol,
  period: Period,
  options: LiveCandleOptions,
): Observable<Candle> {
  const grace = closeGraceMs(period, options);
  const logger = options.logger ?? silentLogger;
  const { clock, marketTime } = options;
  const market = marketOf(symbol);
  return new Observable<Candle>((subscriber) => {
    const aggregator = new CandleAggregator(symbol, period);
    let online = true;
    /** Candlestick requests out: ticks wait in `buffered` meanwhile, and bars do not close. */
    let fetches = 0;
    const buffered: Quote[] = [];
    /** How many of `buffered` came before the latest answer (the service counted them). */
    let covered = 0;
    let timer: TimerHandle | undefined;
    let unsubscribed = false;

    const emit = (candle: Candle | undefined): void => {
      if (candle !== undefined) subscriber.next(candle);
    };
    const schedule = (): void => {
      timer?.cancel();
      timer = undefined;
      const end = aggregator.openBarEnd;
      if (end === undefined || !online || fetches > 0) return;
      timer = clock.setTimeout(check, marketTime.delayUntil(end + grace));
    };
    // The market time estimate may have moved since the timer was set (a faster or slower replay): re-check.
    function check(): void {
      timer = undefined;
      const end = aggregator.openBarEnd;
      if (end === undefined) return;
      if (online && fetches === 0 && marketTime.now() >= end + grace) emit(aggregator.close());
      else schedule();
    }
    const onQuote = (quote: Quote): void => {
      if (quote.tradeSession !== 'normal' && !options.extendedHours) return;
      marketTime.observe(quote.timestamp);
      // A quote of a bar that was over before it came (the state sent with a subscription, e.g. a restarted
      // paper run's replay resuming right after a bar's close) is no live bar: that bar closed before this
      // stream began, it is history's.
      if (aggregator.openBarEnd === undefined && barWindow(quote.timestamp, period, market).end + grace <= marketTime.now()) return;
      if (fetches > 0) buffered.push(quote);
      else {
        emit(aggregator.add(quote));
        schedule();
      }
    };
    /** Merges the service's bars (`merge` asks for them), then lets the waiting ticks in. */
    const fetchCandles = async (merge: () => Promise<void>, failure: string): Promise<void> => {
      fetches += 1;
      timer?.cancel();
      try {
        await merge();
        covered = buffered.length;
      } catch (error) {
        logger.warn({ symbol, period, error: (error as Error).message }, failure);
      }
      fetches -= 1;
      if (fetches > 0 || unsubscribed) return;
      const waiting = buffered.splice(0);
      const answered = covered;
      covered = 0;
      for (const [index, quote] of waiting.entries()) emit(aggregator.add(quote, index < answered));
      schedule();
    };
    // The latest bars that are not history's yet (not closed by the same rule as history-bars.ts), as the
    // service has them now: the bar under way, and one within its grace.
    const seed = (): Promise<void> =>
      fetchCandles(async () => {
        // After the subscription's answer, so the state it pushes comes before this answer.
        await source.whenSubscribed();
        const candles = await source.candlesticks(symbol, period, SEED_BARS);
        const now = marketTime.now();
        const unclosed = candles.filter((candle) => barWindow(candle.time, period, market).end + grace > now);
        for (const candle of aggregator.backfill(unclosed, now)) emit(candle);
      }, 'could not fetch the bar under way; it starts from the first price pushed');
    const backfill = (): void => {
      const since = aggregator.latestStart;
      if (!Number.isFinite(since)) return;
      void fetchCandles(async () => {
        const candles = await source.candlesticks(symbol, period, backfillCount(period, since, marketTime.now()));
        for (const candle of aggregator.backfill(candles, marketTime.now())) emit(candle);
      }, 'could not backfill candles after reconnecting; bars of the gap may be partial');
    };

    const quotes = source.quotes([symbol]).subscribe({ next: onQuote, error: (error: unknown) => subscriber.error(error) });
    void seed();
    const states = source.state$.subscribe((state) => {
      if (state.status === 'reconnecting') {
        online = false;
        timer?.cancel();
      } else if (state.status === 'online') {
        const resumed = !online;
        online = true;
        if (resumed || state.reconnected) backfill();
      } else if (state.status === 'closed') {
        subscriber.complete();
      }
    });
    return () => {
      unsubscribed = true;
      quotes.unsubscribe();
      states.unsubscribe();
      timer?.cancel();
    };
  });
}
