// What the market looks like now, per symbol, built from the replay's ticks: the last trade and the day's
// figures, the day's minute lines and the latest trades. Quote, depth, trades and intraday answers read from
// here, so a client never sees a tick the replay has not delivered yet.
import { marketOf, type SecuritySymbol } from '../../../domain/symbol.js';
import type { ReplayTick } from '../../venue/index.js';
import { MarketDays } from '../../venue/market-days.js';

export interface MinuteLine {
  /** Minute start, epoch ms. */
  readonly time: number;
  price: number;
  volume: number;
  turnover: number;
  /** Day totals up to the end of this minute (for the average price). */
  dayVolume: number;
  dayTurnover: number;
}

export interface PrintedTrade {
  readonly price: number;
  readonly volume: number;
  readonly time: number;
  /** 0 neutral, 1 down, 2 up. */
  readonly direction: number;
}

export interface SymbolQuote {
  readonly symbol: SecuritySymbol;
  /** Increases with every tick of the symbol. */
  sequence: number;
  tick: ReplayTick;
  /** yyyymmdd of the market day of `tick`. */
  dayKey: number;
  /** Last price of the previous market day (the day's open on the first day seen). */
  prevClose: number;
  readonly lines: MinuteLine[];
  readonly trades: PrintedTrade[];
}

const KEPT_TRADES = 500;

export class QuoteBoard {
  private readonly quotes = new Map<SecuritySymbol, SymbolQuote>();
  private readonly days = new Map<string, MarketDays>();

  /** `previousCloses`: each symbol's last history close before the replay, if any. */
  constructor(private readonly previousCloses: ReadonlyMap<SecuritySymbol, number> = new Map()) {}

  get(symbol: SecuritySymbol): SymbolQuote | undefined {
    return this.quotes.get(symbol);
  }

  marketDays(symbol: SecuritySymbol): MarketDays {
    const market = marketOf(symbol);
    let days = this.days.get(market);
    if (days === undefined) {
      days = new MarketDays(market);
      this.days.set(market, days);
    }
    return days;
  }

  apply(tick: ReplayTick): SymbolQuote {
    const dayKey = this.marketDays(tick.symbol).dayKey(tick.time);
    let quote = this.quotes.get(tick.symbol);
    if (quote === undefined) {
      quote = {
        symbol: tick.symbol,
        sequence: 0,
        tick,
        dayKey,
        prevClose: this.previousCloses.get(tick.symbol) ?? tick.dayOpen,
        lines: [],
        trades: [],
      };
      this.quotes.set(tick.symbol, quote);
    } else if (dayKey !== quote.dayKey) {
      quote.prevClose = quote.tick.price;
      quote.dayKey = dayKey;
      quote.lines.length = 0;
    }
    const previousPrice = quote.sequence === 0 ? tick.price : quote.tick.price;
    quote.sequence += 1;
    quote.tick = tick;
    recordMinute(quote.lines, tick);
    quote.trades.push({
      price: tick.price,
      volume: tick.volume,
      time: tick.time,
      direction: tick.price > previousPrice ? 2 : tick.price < previousPrice ? 1 : 0,
    });
    if (quote.trades.length > KEPT_TRADES * 2) quote.trades.splice(0, quote.trades.length - KEPT_TRADES);
    return quote;
  }
}

function recordMinute(lines: MinuteLine[], tick: ReplayTick): void {
  const minute = Math.floor(tick.time / 60_000) * 60_000;
  const turnover = tick.price * tick.volume;
  const last = lines.at(-1);
  if (last !== undefined && last.time === minute) {
    last.price = tick.price;
    last.volume += tick.volume;
    last.turnover += turnover;
    last.dayVolume = tick.dayVolume;
    last.dayTurnover = tick.dayTurnover;
    return;
  }
  lines.push({ time: minute, price: tick.price, volume: tick.volume, turnover, dayVolume: tick.dayVolume, dayTurnover: tick.dayTurnover });
}
