// Live candlesticks of one symbol and period, kept the way the official SDK keeps them (rust/src/quote/store.rs,
// core.rs, crates/candlesticks market.rs): seeded with the service's latest candles (cmd 19), then trades extend
// minute and calendar bars (which fields a trade may move depends on its market and trade type), while a day bar
// of a stock or any bar of an index follows the quote's day figures. Every change is an update; starting a new
// bar confirms the previous one.
import { Money } from '../../domain/money.js';
import { Price } from '../../domain/price.js';
import { Quantity } from '../../domain/quantity.js';
import type { Candle } from '../../domain/candle.js';
import type { Period } from '../../domain/period.js';
import type { MarketTrade, Quote, TradeSession } from '../../domain/quote.js';
import { currencyOf, type Market, type SecuritySymbol } from '../../domain/symbol.js';
import { candleTime, localMidnight, TURNOVER_LOT } from './candle-sessions.js';

/** Most candles kept per series; the oldest are dropped past twice this. */
const KEPT_CANDLES = 500;

export interface CandlestickUpdate {
  readonly symbol: SecuritySymbol;
  readonly period: Period;
  readonly candle: Candle;
  /** True once the bar is complete (a later bar started). */
  readonly confirmed: boolean;
}

interface Bar {
  time: number;
  open: Price;
  high: Price;
  low: Price;
  close: Price;
  volume: number;
  turnover: Money;
  session: TradeSession;
  /** Whether a trade set the open (a bar opened by carrying the previous close has not). */
  openSet: boolean;
}

type Fields = { readonly price: boolean; readonly volume: boolean };
const ALL: Fields = { price: true, volume: true };
const VOLUME: Fields = { price: false, volume: true };
const NONE: Fields = { price: false, volume: false };

/** Index boards, whose bars all follow the quote. */
const INDEX_BOARDS = new Set([
  'USDJI',
  'USNSDQ',
  'USSector',
  'HKHS',
  'HKSector',
  'CNIX',
  'CNSector',
  'STI',
  'SGSector',
  'SPXIndex',
  'VIXIndex',
]);

/** The fields a trade of this type may move (the SDK's table per market; unknown types move nothing). */
function tradeFields(market: Market, board: string, type: string, session: TradeSession): Fields {
  if (market === 'HK') return type === '' || type === 'U' ? ALL : ['D', 'M', 'P', 'X', 'Y'].includes(type) ? VOLUME : NONE;
  if (market !== 'US') return ALL;
  if (type === 'I') return board === 'USOption' || board === 'USOptionS' || session === 'pre' || session === 'post' ? ALL : VOLUME;
  if (['', 'A', 'B', 'D', 'E', 'F', 'K', 'S', 'X', '1'].includes(type)) return ALL;
  return ['C', 'G', 'H', 'V', 'W'].includes(type) ? VOLUME : NONE;
}

export class CandleSeries {
  private readonly bars: Bar[];
  /** The bars as domain candles, a new array after every change (so readers may keep the one they got). */
  private view: readonly Candle[];
  private lastCandleTime: { minute: number; session: TradeSession; halfDay: boolean; time: number | undefined } | undefined;
  /** Index of the last bar of each trade session. */
  private readonly tails = new Map<TradeSession, number>();
  /** Turnover is money of the market's currency. */
  private readonly currency: string;

  constructor(
    readonly symbol: SecuritySymbol,
    readonly market: Market,
    readonly period: Period,
    readonly board: string,
    /** Regular session only, or every session. */
    readonly allSessions: boolean,
    /** The service's latest candles, each with the trade session it belongs to. */
    seed: readonly { readonly candle: Candle; readonly session: TradeSession }[],
  ) {
    this.currency = currencyOf(market);
    this.bars = seed.map(({ candle, session }) => ({
      time: candle.time,
      open: Price.of(candle.open),
      high: Price.of(candle.high),
      low: Price.of(candle.low),
      close: Price.of(candle.close),
      volume: candle.volume,
      turnover: Money.of(candle.turnover ?? 0, this.currency),
      session,
      openSet: true,
    }));
    for (const [index, bar] of this.bars.entries()) this.tails.set(bar.session, index);
    this.view = this.bars.map((bar) => this.candle(bar));
  }

  /** Every kept bar, oldest first; the array is never changed afterwards. */
  get candlesticks(): readonly Candle[] {
    return this.view;
  }

  /** Whether quotes (rather than trades) build this series' bars of `session`. */
  private followsQuote(session: TradeSession): 'day' | 'bar' | undefined {
    if (session !== 'normal') return undefined;
    if (INDEX_BOARDS.has(this.board)) return this.period === 'day' ? 'day' : 'bar';
    return this.period === 'day' ? 'day' : undefined;
  }

  mergeTrade(trade: MarketTrade, halfDay: boolean): CandlestickUpdate[] {
    const session = trade.tradeSession;
    if (this.followsQuote(session) !== undefined) return [];
    return this.merge(
      session,
      trade.timestamp,
      trade.price,
      trade.volume,
      tradeFields(this.market, this.board, trade.tradeType, session),
      halfDay,
    );
  }

  mergeQuote(quote: Quote, halfDay: boolean): CandlestickUpdate[] {
    const mode = this.followsQuote(quote.tradeSession);
    if (mode === undefined) return [];
    if (mode === 'bar') return this.merge(quote.tradeSession, quote.timestamp, quote.lastDone, quote.currentVolume, ALL, halfDay);
    const time = localMidnight(this.market, quote.timestamp);
    const bar: Bar = {
      time,
      open: quote.open,
      high: quote.high,
      low: quote.low,
      close: quote.lastDone,
      volume: quote.volume,
      turnover: quote.turnover,
      session: 'normal',
      openSet: true,
    };
    return this.place(
      'normal',
      time,
      () => bar,
      () => bar,
    );
  }

  private merge(session: TradeSession, at: number, price: Price, volume: number, fields: Fields, halfDay: boolean): CandlestickUpdate[] {
    const time = this.candleTimeOf(session, halfDay, at);
    if (time === undefined) return [];
    const turnover = Money.notional(Quantity.of(volume * TURNOVER_LOT[this.market]), price, this.currency);
    return this.place(
      session,
      time,
      (previous) => {
        const bar = { ...previous };
        if (fields.price) {
          if (!bar.openSet) {
            bar.open = price;
            bar.openSet = true;
          }
          if (price.gt(bar.high)) bar.high = price;
          if (price.lt(bar.low)) bar.low = price;
          bar.close = price;
        }
        if (fields.volume) {
          bar.volume += volume;
          bar.turnover = bar.turnover.plus(turnover);
        }
        return bar;
      },
      (previous) => {
        if (previous === undefined && !fields.price) return undefined;
        const carried = previous?.close ?? price;
        const bar: Bar = {
          time,
          open: carried,
          high: carried,
          low: carried,
          close: carried,
          volume: 0,
          turnover: Money.zero(this.currency),
          session,
          openSet: false,
        };
        if (fields.price) Object.assign(bar, { open: price, high: price, low: price, close: price, openSet: true });
        if (fields.volume) Object.assign(bar, { volume, turnover });
        return bar;
      },
    );
  }

  /**
   * candleTime, remembered for the last minute asked: session bounds fall on whole minutes, so every trade of a
   * minute has the same bar, and the zone conversion (Intl) runs once per minute instead of once per trade.
   */
  private candleTimeOf(session: TradeSession, halfDay: boolean, at: number): number | undefined {
    const minute = Math.floor(at / 60_000);
    const last = this.lastCandleTime;
    if (last !== undefined && last.minute === minute && last.session === session && last.halfDay === halfDay) return last.time;
    const time = candleTime(this.market, session, halfDay, this.period, at);
    this.lastCandleTime = { minute, session, halfDay, time };
    return time;
  }

  /** Updates the session's last bar when `time` is its time, or appends a new bar after it. */
  private place(
    session: TradeSession,
    time: number,
    update: (previous: Bar) => Bar,
    start: (previous: Bar | undefined) => Bar | undefined,
  ): CandlestickUpdate[] {
    const tail = this.tails.get(session);
    const previous = tail === undefined ? undefined : this.bars[tail];
    const wanted = this.allSessions || session === 'normal';
    if (previous !== undefined && time === previous.time) {
      const bar = update(previous);
      const candle = this.candle(bar);
      this.bars[tail!] = bar;
      const view = this.view.slice();
      view[tail!] = candle;
      this.view = view;
      return wanted ? [this.update(candle, false)] : [];
    }
    if (previous !== undefined && time < previous.time) return [];
    const bar = start(previous);
    if (bar === undefined) return [];
    const candle = this.candle(bar);
    const index = tail === undefined ? this.insertByTime(bar, candle) : tail + 1;
    if (tail !== undefined) {
      this.bars.splice(index, 0, bar);
      this.view = [...this.view.slice(0, index), candle, ...this.view.slice(index)];
    }
    // The bar now confirmed is the one before the new bar in the view (its candle was made when it last changed).
    const confirmed = previous === undefined ? undefined : this.view[index - 1];
    for (const [other, position] of this.tails) if (other !== session && position >= index) this.tails.set(other, position + 1);
    this.tails.set(session, index);
    this.trim();
    if (!wanted) return [];
    return confirmed === undefined ? [this.update(candle, false)] : [this.update(confirmed, true), this.update(candle, false)];
  }

  private insertByTime(bar: Bar, candle: Candle): number {
    let index = this.bars.findIndex((existing) => existing.time >= bar.time);
    if (index < 0) index = this.bars.length;
    const view = this.view.slice();
    if (this.bars[index]?.time === bar.time) {
      this.bars[index] = bar;
      view[index] = candle;
    } else {
      this.bars.splice(index, 0, bar);
      view.splice(index, 0, candle);
    }
    this.view = view;
    return index;
  }

  private trim(): void {
    if (this.bars.length <= KEPT_CANDLES * 2) return;
    const removed = this.bars.length - KEPT_CANDLES;
    this.bars.splice(0, removed);
    this.view = this.view.slice(removed);
    for (const [session, position] of [...this.tails]) {
      if (position >= removed) this.tails.set(session, position - removed);
      else this.tails.delete(session);
    }
  }

  private update(candle: Candle, confirmed: boolean): CandlestickUpdate {
    return { symbol: this.symbol, period: this.period, candle, confirmed };
  }

  private candle(bar: Bar): Candle {
    return {
      symbol: this.symbol,
      period: this.period,
      time: bar.time,
      open: bar.open.toNumber(),
      high: bar.high.toNumber(),
      low: bar.low.toNumber(),
      close: bar.close.toNumber(),
      volume: bar.volume,
      turnover: bar.turnover.toNumber(),
    };
  }
}
