// The quote connection's local state as an RxJS state: every push the connection receives (quote, depth, broker
// queue, trades) is merged into it the way the official SDK's cache merges them (a quote field sent as zero keeps
// its last value; depth and broker levels are replaced by position; trades are appended, at most 1000 kept), and
// the candle series of candlestick subscriptions grow from the same pushes. `state$` emits an immutable snapshot
// after each change, so any consumer can read it (or `select` one symbol); the getters answer like the SDK's
// realtimeQuote, realtimeDepth, realtimeBrokers, realtimeTrades and realtimeCandlesticks. A push replaces one
// symbol's entry; the whole-state snapshot is built only when read (so a push costs the same for 1 or 500 symbols).
import { defer, distinctUntilChanged, filter, map, startWith, Subject, type Observable } from 'rxjs';
import type { Candle } from '../../domain/candle.js';
import type { Period } from '../../domain/period.js';
import type { Depth, DepthLevel, MarketTrade, Quote, Trades } from '../../domain/quote.js';
import type { Market, SecuritySymbol } from '../../domain/symbol.js';
import type { CandleSeries, CandlestickUpdate } from './live-candles.js';
import type { BrokerQueue, SecurityBrokers } from './quote-extras-mapping.js';

const MAX_TRADES = 500;

export interface RealtimeSymbol {
  readonly symbol: SecuritySymbol;
  /** The last quote, merged over every quote push. */
  readonly quote: Quote | undefined;
  readonly asks: readonly DepthLevel[];
  readonly bids: readonly DepthLevel[];
  readonly askBrokers: readonly BrokerQueue[];
  readonly bidBrokers: readonly BrokerQueue[];
  /** Oldest first. */
  readonly trades: readonly MarketTrade[];
  /** Candles of each subscribed period, oldest first. */
  readonly candlesticks: ReadonlyMap<Period, readonly Candle[]>;
}

export type RealtimeSnapshot = ReadonlyMap<SecuritySymbol, RealtimeSymbol>;

/** Whether a market date is a half trading day (candle sessions end early). */
export type HalfDays = (market: Market, time: number) => boolean;

const EMPTY_SYMBOL = (symbol: SecuritySymbol): RealtimeSymbol => ({
  symbol,
  quote: undefined,
  asks: [],
  bids: [],
  askBrokers: [],
  bidBrokers: [],
  trades: [],
  candlesticks: new Map(),
});

export class RealtimeState {
  private readonly entries = new Map<SecuritySymbol, RealtimeSymbol>();
  /** The snapshot of the entries as they are now; undefined after a change until read again. */
  private built: RealtimeSnapshot | undefined;
  /** The symbol of every change. */
  private readonly changes = new Subject<SecuritySymbol>();
  private readonly candleUpdates = new Subject<CandlestickUpdate>();
  private readonly series = new Map<SecuritySymbol, Map<Period, CandleSeries>>();

  constructor(private readonly halfDays: HalfDays = () => false) {}

  /** The whole state now and after every change (an immutable snapshot each time). */
  get state$(): Observable<RealtimeSnapshot> {
    return defer(() =>
      this.changes.pipe(
        startWith(undefined),
        map(() => this.snapshot),
      ),
    );
  }

  get snapshot(): RealtimeSnapshot {
    this.built ??= new Map(this.entries);
    return this.built;
  }

  /** One symbol's state now and after each of its changes. */
  select(symbol: SecuritySymbol): Observable<RealtimeSymbol | undefined> {
    return defer(() =>
      this.changes.pipe(
        filter((changed) => changed === symbol),
        startWith(symbol),
        map(() => this.entries.get(symbol)),
        distinctUntilChanged(),
      ),
    );
  }

  /** Every change of a subscribed candlestick series (a new bar confirms the one before it). */
  get candlesticks$(): Observable<CandlestickUpdate> {
    return this.candleUpdates.asObservable();
  }

  quote(symbols: readonly SecuritySymbol[]): Quote[] {
    return symbols.flatMap((symbol) => this.entries.get(symbol)?.quote ?? []);
  }

  depth(symbol: SecuritySymbol): { readonly asks: readonly DepthLevel[]; readonly bids: readonly DepthLevel[] } {
    const state = this.entries.get(symbol);
    return { asks: state?.asks ?? [], bids: state?.bids ?? [] };
  }

  brokers(symbol: SecuritySymbol): { readonly askBrokers: readonly BrokerQueue[]; readonly bidBrokers: readonly BrokerQueue[] } {
    const state = this.entries.get(symbol);
    return { askBrokers: state?.askBrokers ?? [], bidBrokers: state?.bidBrokers ?? [] };
  }

  trades(symbol: SecuritySymbol, count: number): MarketTrade[] {
    const trades = this.entries.get(symbol)?.trades ?? [];
    return trades.slice(Math.max(0, trades.length - count));
  }

  candlesticks(symbol: SecuritySymbol, period: Period, count: number): Candle[] {
    const candles = this.entries.get(symbol)?.candlesticks.get(period) ?? [];
    return candles.slice(Math.max(0, candles.length - count));
  }

  /** The series of a candlestick subscription, if held. */
  candleSeries(symbol: SecuritySymbol, period: Period): CandleSeries | undefined {
    return this.series.get(symbol)?.get(period);
  }

  /** Periods with a candle series, per symbol. */
  candlePeriods(): Map<SecuritySymbol, Period[]> {
    return new Map([...this.series].map(([symbol, periods]) => [symbol, [...periods.keys()]]));
  }

  addSeries(series: CandleSeries): void {
    let periods = this.series.get(series.symbol);
    if (periods === undefined) this.series.set(series.symbol, (periods = new Map()));
    periods.set(series.period, series);
    this.change(series.symbol, (state) => ({ ...state, candlesticks: this.candlesOf(series.symbol) }));
  }

  removeSeries(symbol: SecuritySymbol, period: Period): boolean {
    const periods = this.series.get(symbol);
    if (periods?.delete(period) !== true) return false;
    if (periods.size === 0) this.series.delete(symbol);
    this.change(symbol, (state) => ({ ...state, candlesticks: this.candlesOf(symbol) }));
    return true;
  }

  /** Merges a quote push; returns the merged quote. */
  applyQuote(push: Quote): Quote {
    const previous = this.entries.get(push.symbol)?.quote;
    const quote = previous === undefined || !hasZeroField(push) ? push : mergeQuote(previous, push);
    const series = this.series.get(push.symbol);
    const updates =
      series === undefined
        ? NO_UPDATES
        : [...series.values()].flatMap((one) => one.mergeQuote(quote, this.halfDays(one.market, quote.timestamp)));
    this.change(push.symbol, (state) => this.withCandles({ ...state, quote }, updates));
    return quote;
  }

  applyDepth(push: Depth): void {
    this.change(push.symbol, (state) => ({ ...state, asks: byPosition(state.asks, push.asks), bids: byPosition(state.bids, push.bids) }));
  }

  applyBrokers(push: SecurityBrokers): void {
    this.change(push.symbol, (state) => ({
      ...state,
      askBrokers: byPosition(state.askBrokers, push.askBrokers),
      bidBrokers: byPosition(state.bidBrokers, push.bidBrokers),
    }));
  }

  applyTrades(push: Trades): void {
    const series = this.series.get(push.symbol);
    const updates =
      series === undefined
        ? NO_UPDATES
        : [...series.values()].flatMap((one) =>
            push.trades.flatMap((trade) => one.mergeTrade(trade, this.halfDays(one.market, trade.timestamp))),
          );
    this.change(push.symbol, (state) => {
      let trades = [...state.trades, ...push.trades];
      if (trades.length > MAX_TRADES * 2) trades = trades.slice(MAX_TRADES);
      return this.withCandles({ ...state, trades }, updates);
    });
  }

  complete(): void {
    this.changes.complete();
    this.candleUpdates.complete();
  }

  private pending: CandlestickUpdate[] = [];

  private withCandles(state: RealtimeSymbol, updates: readonly CandlestickUpdate[]): RealtimeSymbol {
    if (updates.length === 0) return state;
    this.pending.push(...updates);
    return { ...state, candlesticks: this.candlesOf(state.symbol) };
  }

  private candlesOf(symbol: SecuritySymbol): ReadonlyMap<Period, readonly Candle[]> {
    return new Map([...(this.series.get(symbol)?.entries() ?? [])].map(([period, series]) => [period, series.candlesticks]));
  }

  /** Replaces one symbol's state, announces the change, then the candle updates the change made. */
  private change(symbol: SecuritySymbol, next: (state: RealtimeSymbol) => RealtimeSymbol): void {
    this.entries.set(symbol, next(this.entries.get(symbol) ?? EMPTY_SYMBOL(symbol)));
    this.built = undefined;
    this.changes.next(symbol);
    const updates = this.pending;
    this.pending = [];
    for (const update of updates) this.candleUpdates.next(update);
  }
}

const NO_UPDATES: readonly CandlestickUpdate[] = [];

/** Whether a quote push leaves a field at zero (the SDK then keeps the last value). */
function hasZeroField(push: Quote): boolean {
  return (
    push.lastDone.isZero() || push.open.isZero() || push.high.isZero() || push.low.isZero() || push.turnover.isZero() || push.volume === 0
  );
}

function mergeQuote(previous: Quote, push: Quote): Quote {
  const keep = <K extends 'lastDone' | 'open' | 'high' | 'low' | 'turnover'>(field: K): Quote[K] =>
    push[field].isZero() ? previous[field] : push[field];
  return {
    ...push,
    lastDone: keep('lastDone'),
    open: keep('open'),
    high: keep('high'),
    low: keep('low'),
    turnover: keep('turnover'),
    volume: push.volume === 0 ? previous.volume : push.volume,
  };
}

/** `current` with each level of `changes` replacing the one at its position, sorted by position. */
function byPosition<T extends { readonly position: number }>(current: readonly T[], changes: readonly T[]): T[] {
  const levels = new Map(current.map((level) => [level.position, level]));
  for (const level of changes) levels.set(level.position, level);
  return [...levels.values()].sort((left, right) => left.position - right.position);
}
