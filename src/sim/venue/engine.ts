// The matching engine: runs a symbol's resting orders against each bar (or tick) and books the fills into
// the account. The one place fills happen, for the backtest and the paper server alike.
import type { Fill } from '../../domain/fill.js';
import { Fixed } from '../../domain/fixed.js';
import { Money } from '../../domain/money.js';
import { nextStatus, type OrderEvent } from '../../domain/order-state-machine.js';
import { isTerminal } from '../../domain/order-status.js';
import { applyFill, flatPosition } from '../../domain/position.js';
import type { Price } from '../../domain/price.js';
import { Quantity } from '../../domain/quantity.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import type { Accounts } from './accounts.js';
import { holdQuantity, refreshFloats, type SymbolSlot } from './book.js';
import type { FaultInjector } from './faults.js';
import { noFees, type FeeModel } from './fees.js';
import type { Bar, Matcher } from './matching.js';
import { remainingOf, rememberFirstAverage, type FillReport, type OrderHistoryEntry, type OrderRecord } from './orders.js';
import { extendedHoursAllowed } from './order-kinds.js';

export interface EngineHooks {
  /** Publishes an order's new state (and the fill that caused it). */
  emit(record: OrderRecord, fill?: FillReport): void;
  /** Every fill, in order. */
  readonly executions: Fill[];
  /** Whether each change adds a line to its order's history (see VenueOptions.keepHistory). */
  readonly keepHistory: boolean;
  /** The symbol's board lot: a fill cut short by the bar's volume (or a partial-fill fault) takes whole lots. */
  lotSize(symbol: SecuritySymbol): number;
}

const ONE = Quantity.of(1);

export class Engine {
  constructor(
    private readonly matcher: Matcher,
    private readonly accounts: Accounts,
    private readonly fees: FeeModel,
    private readonly faults: FaultInjector,
    private readonly participation: number | null,
    private readonly hooks: EngineHooks,
  ) {}

  /** Reused list of the orders a bar is matched against (a fresh one if a listener re-enters), written over, not emptied. */
  private readonly batch: OrderRecord[] = [];
  /** Reused list of the fills a bar makes, before they go out in path order. */
  private readonly due = new DueFills();
  private depth = 0;

  /**
   * Matches the slot's resting orders against `bar`; the slot's mark still holds the previous price.
   * Listeners may submit or cancel from inside: the bar sees only the orders resting when it arrived.
   */
  processBar(slot: SymbolSlot, bar: Bar): void {
    const batch = this.depth === 0 ? this.batch : [];
    const resting = slot.resting;
    const count = resting.length;
    for (let index = 0; index < count; index += 1) batch[index] = resting[index]!;
    this.depth++;
    try {
      this.matchAll(slot, bar, batch, count);
    } finally {
      this.depth--;
    }
  }

  private matchAll(slot: SymbolSlot, bar: Bar, batch: readonly OrderRecord[], count: number): void {
    const due = this.depth === 1 ? this.due : new DueFills();
    try {
      for (let index = 0; index < count; index += 1) {
        const record = batch[index]!;
        if (isTerminal(record.status)) continue;
        if (bar.time >= record.expiresAt) {
          this.finish(
            slot,
            record,
            'expire',
            bar.time,
            record.timeInForce === 'GTD' ? `expired after ${record.expireDate}` : 'expired at the end of its market day',
          );
          continue;
        }
        // Regular-hours orders wait out pre- and post-market bars (auction orders trade outside the sessions).
        if (!slot.regular && regularHoursOnly(record)) continue;
        // A Day order placed outside its market's session belongs to the first market day it meets.
        if (record.timeInForce === 'Day' && record.expiresAt === Number.POSITIVE_INFINITY) record.expiresAt = slot.days.dayEnd(bar.time);
        const wasTriggered = record.triggered;
        const price = this.matcher.fillPrice(record, bar);
        if (price !== undefined) due.add(record, price, this.matcher.reachedAt);
        else if (record.triggered !== wasTriggered) this.changed(record, bar.time, `triggered at ${record.triggerPrice?.toFixed()}`);
      }
      // In the order the price reaches them along the bar (time priority among equals), as ticks bring them.
      due.sort();
      for (let index = 0; index < due.count; index += 1) {
        const record = due.record(index);
        // A listener of an earlier fill may have cancelled it.
        if (!isTerminal(record.status)) this.fillUpTo(slot, record, due.price(index), Math.max(bar.time, record.updatedAt));
      }
    } finally {
      due.clear();
    }
    for (let index = 0; index < count; index += 1) {
      const record = batch[index]!;
      if (record.orderType === 'AO' && !isTerminal(record.status))
        this.finish(slot, record, 'cancel', bar.time, 'auction over: unfilled quantity cancelled');
    }
  }

  /** Fills as much of the order as the bar's remaining volume allows (and the fault plan leaves). */
  fillUpTo(slot: SymbolSlot, record: OrderRecord, price: Price, time: number): void {
    let quantity = remainingOf(record);
    let amount = quantity.toNumber();
    const room = this.room(slot);
    if (room < Number.POSITIVE_INFINITY && room < amount) {
      quantity = Quantity.of(wholeLots(Math.floor(room), this.lotOf(record, amount)));
      amount = quantity.toNumber();
    }
    const fraction = quantity.gt(ONE) ? this.faults.partialFillFraction() : undefined;
    if (fraction !== undefined) {
      const lot = this.lotOf(record, amount);
      const part = wholeLots(quantity.times(Fixed.of(fraction)).floor().toNumber(), lot);
      quantity = Quantity.of(Math.max(part, Math.min(lot, amount)));
      amount = quantity.toNumber();
    }
    if (!quantity.isPositive()) return;
    slot.consumed += amount;
    this.fill(slot, record, quantity, price, time);
  }

  /** Ends an open order (cancel or expire), releasing what it held back, and takes it off the book. */
  finish(slot: SymbolSlot, record: OrderRecord, event: 'cancel' | 'expire', time: number, message: string): void {
    this.move(record, event);
    this.accounts.reserve(slot, record);
    removeFrom(slot.resting, record);
    this.changed(record, time, message);
  }

  /** Moves an order's status through the one transition table; a refused move is a venue bug. */
  move(record: OrderRecord, event: OrderEvent): void {
    const next = nextStatus(record.status, event, record.executedQuantity.isPositive());
    if (next === undefined) throw new Error(`order ${record.orderId}: no transition from ${record.status} on ${event}`);
    record.status = next;
  }

  /** `move` for a fill event: the order has executions now, so the table is asked with hasFills. */
  private moveFilled(record: OrderRecord, event: 'fill' | 'partialFill'): void {
    const next = nextStatus(record.status, event, true);
    if (next === undefined) throw new Error(`order ${record.orderId}: no transition from ${record.status} on ${event}`);
    record.status = next;
  }

  changed(record: OrderRecord, time: number, message: string, fill?: FillReport): void {
    record.updatedAt = Math.max(record.updatedAt, time);
    record.message = message;
    if (this.hooks.keepHistory)
      record.history = withEntry(record.history, {
        price: fill?.price ?? record.price,
        quantity: fill?.quantity ?? record.quantity,
        status: record.status,
        message,
        time: record.updatedAt,
      });
    this.hooks.emit(record, fill);
  }

  /** The lot a cut-short fill of `record` keeps to: 1 for what is left of an odd quantity (an ODD order, odd shares). */
  private lotOf(record: OrderRecord, remaining: number): number {
    const lot = this.hooks.lotSize(record.symbol);
    return lot > 1 && remaining >= lot && Number.isInteger(remaining) ? lot : 1;
  }

  private room(slot: SymbolSlot): number {
    if (this.participation === null || !(slot.volume > 0)) return Number.POSITIVE_INFINITY;
    return Math.max(0, slot.volume * this.participation - slot.consumed);
  }

  private fill(slot: SymbolSlot, record: OrderRecord, quantity: Quantity, at: Price, time: number): void {
    // Without trailing zeros (a limit of 168.00 fills at 168), as a report's text carries it: the places a
    // price has decide where a position's cost shares and averages round, in this process and in a client's.
    const price = at.normalized();
    const side = record.side;
    const ledger = slot.ledger;
    const value = Money.notional(quantity, price, ledger.currency);
    const first = record.executedQuantity.isZero();
    const executedQuantity = record.executedQuantity.plus(quantity);
    const executedValue = record.executedValue.plus(value);
    let fee = record.fees.total;
    // Without a fee model an order's fees stay zero, and so does every fill's fee.
    if (this.fees !== noFees || !fee.isZero()) {
      const order = this.fees.orderFees({
        symbol: record.symbol,
        market: record.market,
        side,
        quantity: executedQuantity,
        value: executedValue,
      });
      fee = order.total.minus(record.fees.total);
      record.fees = order;
    }
    record.executedQuantity = executedQuantity;
    record.executedValue = executedValue;
    record.lastDone = price;
    if (first) rememberFirstAverage(record, price);
    // The account's execution is also the position's change and the fill the change reports.
    const execution: Fill = {
      fillId: `${record.orderId}:${executedQuantity.toString()}`,
      orderId: record.orderId,
      symbol: record.symbol,
      side,
      quantity,
      price,
      time,
      commission: fee,
    };

    ledger.cash = side === 'Buy' ? ledger.cash.minus(value.plus(fee)) : ledger.cash.plus(value.minus(fee));
    this.book(slot, execution, value);

    const full = executedQuantity.eq(record.quantity);
    this.moveFilled(record, full ? 'fill' : 'partialFill');
    this.accounts.reserve(slot, record, full ? undefined : this.accounts.reservationOf(slot, record));
    if (full) removeFrom(slot.resting, record);
    refreshFloats(ledger);
    this.hooks.executions.push(execution);
    this.changed(record, time, full ? 'filled' : 'partially filled', execution);
  }

  /** Books a fill into the symbol's position, rolling the start-of-day quantity on a new market day. */
  private book(slot: SymbolSlot, fill: Fill, value: Money): void {
    const day = slot.days.dayKey(fill.time);
    const held = (slot.position ??= {
      position: flatPosition(slot.symbol),
      initQuantity: Quantity.ZERO,
      dayKey: day,
      reservedSell: Quantity.ZERO,
    });
    if (held.dayKey !== day) {
      held.initQuantity = held.position.quantity;
      held.dayKey = day;
    }
    const wasFlat = slot.quantity === 0;
    held.position = applyFill(held.position, fill, value);
    holdQuantity(slot, held.position.quantity);
    const list = slot.ledger.held;
    if (wasFlat && slot.quantity !== 0) list.push(slot);
    else if (!wasFlat && slot.quantity === 0) removeFrom(list, slot);
  }
}

/** `amount` rounded down to whole lots. */
function wholeLots(amount: number, lot: number): number {
  return lot > 1 ? Math.floor(amount / lot) * lot : amount;
}

/** Removes `item` from `list` keeping the order (splice would also allocate an array of what it removed). */
function removeFrom<T>(list: T[], item: T): void {
  const index = list.indexOf(item);
  if (index < 0) return;
  for (let position = index + 1; position < list.length; position += 1) list[position - 1] = list[position]!;
  list.pop();
}

/**
 * A copy of `history` one entry longer, of exactly that length (Array.prototype.concat costs several times
 * more, and a pushed-to array keeps spare slots in every order a venue holds).
 */
function withEntry(history: readonly OrderHistoryEntry[], entry: OrderHistoryEntry): OrderHistoryEntry[] {
  const length = history.length;
  const next = new Array<OrderHistoryEntry>(length + 1);
  for (let index = 0; index < length; index += 1) next[index] = history[index]!;
  next[length] = entry;
  return next;
}

/**
 * Fills found on one bar: each order, its price, and how far along the bar's path the price reaches it (lists
 * written over for each bar, not emptied).
 */
class DueFills {
  private readonly records: OrderRecord[] = [];
  private readonly prices: Price[] = [];
  private readonly reached: number[] = [];
  /** Positions into the lists, in fill order. */
  private readonly order: number[] = [];
  count = 0;

  add(record: OrderRecord, price: Price, reachedAt: number): void {
    const at = this.count;
    this.records[at] = record;
    this.prices[at] = price;
    this.reached[at] = reachedAt;
    this.order[at] = at;
    this.count = at + 1;
  }

  /** Stable: orders reached at the same point keep their time priority (an insertion sort: bars fill few). */
  sort(): void {
    const { order, reached } = this;
    for (let index = 1; index < this.count; index += 1) {
      const moving = order[index]!;
      let at = index - 1;
      while (at >= 0 && reached[order[at]!]! > reached[moving]!) {
        order[at + 1] = order[at]!;
        at -= 1;
      }
      order[at + 1] = moving;
    }
  }

  record(index: number): OrderRecord {
    return this.records[this.order[index]!]!;
  }

  price(index: number): Price {
    return this.prices[this.order[index]!]!;
  }

  clear(): void {
    this.count = 0;
  }
}

/** Orders that trade only in the regular sessions: all but those allowed outside them and auction orders. */
function regularHoursOnly(record: OrderRecord): boolean {
  return record.orderType !== 'AO' && !extendedHoursAllowed(record.market, record.outsideRth);
}
