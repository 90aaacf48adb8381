// What the venue books on positions between fills: dividends and splits on their ex-dates, and shorts'
// borrow fees per market day. Each symbol's SymbolCarry says when; this books the cash and shares, keeps
// the cash-flow rows and tells the listener.
import type { Clock } from '../../domain/clock.js';
import type { FixedPoint } from '../../domain/fixed-point.js';
import { Quantity } from '../../domain/quantity.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import type { Accounts } from './accounts.js';
import type { Book, SymbolSlot } from './book.js';
import { carryFlow, type CarryEvent, type CashFlow } from './cash-flows.js';
import type { CarryNotice, CarryNoticeBody } from './carry-notice.js';
import { SymbolCarry, type CarryBooks } from './carry.js';
import { chargeBorrowFee, payDividend, splitShares, type CorporateAction } from './corporate-actions.js';
import type { Engine } from './engine.js';

export interface VenueCarryParts {
  readonly book: Book;
  readonly accounts: Accounts;
  readonly engine: Engine;
  readonly clock: Clock;
  readonly borrowFeeRate: number;
  /** Dividends and splits of the data (unadjusted prices). */
  readonly actions: readonly CorporateAction[];
  /** Keep the rows for cashFlows() (a backtest keeps none: a short held for years books a row a day). */
  readonly keepFlows: boolean;
  readonly onCarry: ((notice: CarryNotice) => void) | undefined;
  /** How many fills the venue has made (a notice says which fills it goes between). */
  readonly fillCount: () => number;
}

export class VenueCarry {
  /** The carry's cash-flow rows, oldest first (persisted with the venue). */
  readonly flows: CashFlow[] = [];
  /** Each symbol's actions (oldest first); carries are made for these symbols, or for all with a borrow fee. */
  private readonly actionsBySymbol = new Map<SecuritySymbol, CorporateAction[]>();
  private readonly carries = new Map<SecuritySymbol, SymbolCarry>();
  /** Whether anything is carried at all (most runs: no actions, no borrow fee, nothing to look up per price). */
  private readonly carrying: boolean;
  /** Market time a resumed account was carried through (see resume). */
  private carriedThrough: number | undefined;
  private readonly books: CarryBooks = {
    applyAction: (action, time) => this.applyCorporateAction(action, time),
    chargeBorrowFee: (slot, days, time) => {
      const quantity = slot.position?.position.quantity;
      const fee = chargeBorrowFee(slot, this.parts.borrowFeeRate, days);
      if (quantity === undefined || fee.isZero()) return;
      this.bookRow(slot.symbol, time, { kind: 'borrow-fee', days, held: quantity }, fee.negated());
      this.tell(slot.symbol, time, { kind: 'borrow-fee', amount: fee });
    },
  };

  constructor(private readonly parts: VenueCarryParts) {
    this.carrying = parts.actions.length > 0 || parts.borrowFeeRate > 0;
    for (const action of parts.actions) {
      const list = this.actionsBySymbol.get(action.symbol);
      if (list === undefined) this.actionsBySymbol.set(action.symbol, [action]);
      else list.push(action);
    }
  }

  /** The symbol's carry, made on first use; undefined when it has no actions and shorts pay no borrow fee. */
  of(slot: SymbolSlot): SymbolCarry | undefined {
    if (!this.carrying) return undefined;
    let carry = this.carries.get(slot.symbol);
    if (carry !== undefined) return carry;
    const actions = this.actionsBySymbol.get(slot.symbol);
    if (actions === undefined && this.parts.borrowFeeRate === 0) return undefined;
    carry = new SymbolCarry(slot, actions ?? [], this.parts.borrowFeeRate > 0, this.books);
    if (this.carriedThrough !== undefined) carry.carriedThrough(this.carriedThrough);
    this.carries.set(slot.symbol, carry);
    return carry;
  }

  /** A carry of the symbol over the given actions (a backtest's series brings its own); undefined when nothing is carried. */
  withActions(slot: SymbolSlot, actions: readonly CorporateAction[]): SymbolCarry | undefined {
    return actions.length > 0 || this.parts.borrowFeeRate > 0
      ? new SymbolCarry(slot, actions, this.parts.borrowFeeRate > 0, this.books)
      : undefined;
  }

  /** See Venue.resumeCarry. */
  resume(time: number): void {
    this.carriedThrough = time;
    for (const carry of this.carries.values()) carry.carriedThrough(time);
  }

  /** Whether an action of `symbol` has an ex-date after `after` and up to `through` (YYYY-MM-DD). */
  actsBetween(symbol: SecuritySymbol, after: string | undefined, through: string): boolean {
    return (this.actionsBySymbol.get(symbol) ?? []).some(
      (action) => (after === undefined || action.exDate > after) && action.exDate <= through,
    );
  }

  /**
   * A dividend or split taking effect now (before the ex-date's first price at `time`): dividends are paid
   * to holders and charged to short holders; a split scales positions, average costs, the mark and open
   * orders. Each cash or share movement is booked in the cash-flow ledger.
   */
  private applyCorporateAction(action: CorporateAction, time: number): void {
    const { book, accounts, engine, clock } = this.parts;
    const slot = book.slot(action.symbol);
    const held = slot.position?.position.quantity ?? Quantity.ZERO;
    if (action.kind === 'dividend') {
      const paid = payDividend(slot, action.perShare);
      if (paid.isZero()) return;
      this.bookRow(action.symbol, time, { kind: 'dividend', perShare: action.perShare, held }, paid);
      this.tell(action.symbol, time, { kind: 'dividend', amount: paid });
      return;
    }
    const outcome = splitShares(slot, action.ratio, (record) => accounts.reserve(slot, record, accounts.reservationOf(slot, record)));
    if (!outcome.shares.isZero()) this.bookRow(action.symbol, time, { kind: 'split', ratio: action.ratio }, outcome.shares);
    if (!outcome.cashInLieu.isZero()) this.bookRow(action.symbol, time, { kind: 'cash-in-lieu', ratio: action.ratio }, outcome.cashInLieu);
    if (!held.isZero()) this.tell(action.symbol, time, { kind: 'split', ratio: action.ratio, cashInLieu: outcome.cashInLieu });
    const now = clock.now();
    for (const record of [...slot.resting]) engine.changed(record, now, `adjusted for a ${action.ratio.toFixed()}-for-1 split`);
  }

  private bookRow(symbol: SecuritySymbol, time: number, event: CarryEvent, amount: FixedPoint): void {
    if (!this.parts.keepFlows) return;
    const currency = this.parts.book.slot(symbol).ledger.currency;
    this.flows.push(carryFlow(this.flows.length + 1, symbol, time, event, amount, currency));
  }

  private tell(symbol: SecuritySymbol, time: number, body: CarryNoticeBody): void {
    this.parts.onCarry?.({ symbol, time, fills: this.parts.fillCount(), ...body });
  }
}
