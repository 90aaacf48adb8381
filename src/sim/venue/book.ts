// The venue's books: one pre-allocated slot per symbol (mark price, resting orders, position) and one
// ledger per currency (cash and what open orders hold back). Float mirrors keep per-bar marking cheap;
// the fixed-point fields are the truth and change only on orders and fills.
import { Money } from '../../domain/money.js';
import type { Position } from '../../domain/position.js';
import { Price } from '../../domain/price.js';
import type { Quantity } from '../../domain/quantity.js';
import { currencyOf, marketOf, type Market, type SecuritySymbol } from '../../domain/symbol.js';
import type { Fixed } from '../../domain/fixed.js';
import type { Raw } from '../../domain/fixed-raw.js';
import { MarketDays } from './market-days.js';
import type { OrderRecord } from './orders.js';

export interface PositionRecord {
  position: Position;
  /** Quantity held at the start of the market day `dayKey`. */
  initQuantity: Quantity;
  /** yyyymmdd of the market day of the latest fill. */
  dayKey: number;
  /** Held shares promised to open sell orders. */
  reservedSell: Quantity;
}

export interface CurrencyLedger {
  readonly currency: string;
  cash: Money;
  /** Cash held back by open buy orders. */
  frozenCash: Money;
  /** Initial margin held back by open orders. */
  marginReserved: Money;
  /** Fees open buy orders are expected to cost (their reservations' fees). */
  frozenFees: Money;
  cashFloat: number;
  /** Σ quantity × mark over `held`, kept current per bar. */
  holdingsFloat: number;
  /** Slots of this currency with a non-zero position. */
  readonly held: SymbolSlot[];
  /**
   * Moves on every change the account figures depend on (cash, reservations, held quantities, marks of
   * held symbols), so figures computed at one version can be reused until the next.
   */
  version: number;
  /** Moves when held quantities or the marks of held symbols change (not on cash or reservations). */
  holdingsVersion: number;
}

export interface SymbolSlot {
  readonly symbol: SecuritySymbol;
  readonly market: Market;
  readonly ledger: CurrencyLedger;
  readonly days: MarketDays;
  /** Last price (NaN before the first bar or tick). */
  mark: number;
  /** Price of `mark`, made on demand and dropped when the mark moves. */
  markPrice: Price | undefined;
  /** Decimal places of `mark` (its shortest text), as of the mark `markPlacesAt` (see held-value.ts). */
  markPlaces: number;
  markPlacesAt: number;
  /** Start time of the last bar (or time of the last tick). */
  time: number;
  /** Whether the last bar was the last of its market day in a backtest's data (see BarInput.onBar). */
  dayOver: boolean;
  /** Whether the bar being matched overlaps a regular session (else only orders allowed outside them fill). */
  regular: boolean;
  /** Volume of the last bar and how much of it the venue's fills used. */
  volume: number;
  consumed: number;
  /** Start of the replayed bar the last tick came from (NaN before one): its ticks share the bar's volume. */
  barStart: number;
  /** Open orders in time priority. */
  readonly resting: OrderRecord[];
  position: PositionRecord | undefined;
  /** Float mirror of the position quantity. */
  quantity: number;
  /** The position quantity's raw units and places (set with it by holdQuantity), for the held-value sums. */
  units: Raw;
  unitPlaces: number;
}

/** What a ledger shows of the equity estimate: cash and positions at their marks, as floats. */
export interface EquityLedger {
  readonly currency: string;
  readonly cashFloat: number;
  readonly holdingsFloat: number;
  readonly held: { readonly length: number };
}

/** The equity estimate in `currency` (0 without a ledger in it) and whether any ledger holds positions, into `into`. */
export function equityOf(ledgers: readonly EquityLedger[], currency: string, into: { equity: number; exposed: boolean }): void {
  let equity = 0;
  let exposed = false;
  for (let index = 0; index < ledgers.length; index += 1) {
    const ledger = ledgers[index]!;
    if (ledger.currency === currency) equity = ledger.cashFloat + ledger.holdingsFloat;
    if (ledger.held.length > 0) exposed = true;
  }
  into.equity = equity;
  into.exposed = exposed;
}

/** Sets the mirrors of a slot's position quantity (its float and its raw units). */
export function holdQuantity(slot: SymbolSlot, quantity: Quantity): void {
  slot.quantity = quantity.toNumber();
  slot.units = quantity.raw;
  slot.unitPlaces = quantity.precision;
}

export class Book {
  readonly slots = new Map<string, SymbolSlot>();
  readonly ledgers = new Map<string, CurrencyLedger>();
  /** The same ledgers as a list, for per-bar questions without an iterator. */
  readonly ledgerList: CurrencyLedger[] = [];
  private readonly days = new Map<Market, MarketDays>();

  constructor(cash: Readonly<Record<string, Fixed>>) {
    for (const [currency, amount] of Object.entries(cash)) this.ledger(currency).cash = Money.of(amount, currency);
    for (const ledger of this.ledgers.values()) ledger.cashFloat = ledger.cash.toNumber();
  }

  ledger(currency: string): CurrencyLedger {
    let ledger = this.ledgers.get(currency);
    if (ledger === undefined) {
      const zero = Money.zero(currency);
      ledger = {
        currency,
        cash: zero,
        frozenCash: zero,
        marginReserved: zero,
        frozenFees: zero,
        cashFloat: 0,
        holdingsFloat: 0,
        held: [],
        version: 0,
        holdingsVersion: 0,
      };
      this.ledgers.set(currency, ledger);
      this.ledgerList.push(ledger);
    }
    return ledger;
  }

  slot(symbol: SecuritySymbol): SymbolSlot {
    return this.slots.get(symbol) ?? this.addSlot(symbol);
  }

  marketDays(market: Market): MarketDays {
    let days = this.days.get(market);
    if (days === undefined) {
      days = new MarketDays(market);
      this.days.set(market, days);
    }
    return days;
  }

  private addSlot(symbol: SecuritySymbol): SymbolSlot {
    const market = marketOf(symbol);
    const slot: SymbolSlot = {
      symbol,
      market,
      ledger: this.ledger(currencyOf(market)),
      days: this.marketDays(market),
      mark: Number.NaN,
      markPrice: undefined,
      markPlaces: 0,
      markPlacesAt: Number.NaN,
      time: Number.NaN,
      dayOver: false,
      regular: true,
      volume: 0,
      consumed: 0,
      barStart: Number.NaN,
      resting: [],
      position: undefined,
      quantity: 0,
      units: 0,
      unitPlaces: 0,
    };
    this.slots.set(symbol, slot);
    return slot;
  }
}

export function markOf(slot: SymbolSlot): Price {
  slot.markPrice ??= Price.of(slot.mark);
  return slot.markPrice;
}

/** Re-derives a ledger's float figures from its cash and held positions (after every fill). */
export function refreshFloats(ledger: CurrencyLedger): void {
  ledger.version += 1;
  ledger.holdingsVersion += 1;
  ledger.cashFloat = ledger.cash.toNumber();
  let holdings = 0;
  for (const slot of ledger.held) holdings += slot.quantity * slot.mark;
  ledger.holdingsFloat = holdings;
}
