// What a symbol's books carry from one market day to the next: its corporate actions due by the day (applied
// before the day's first price, so unadjusted prices meet adjusted positions) and a short position's borrow
// fee for the calendar days since the previous day seen. The same object serves a backtest's bars and the
// simulator's ticks, so both apply the same actions on the same day.
import type { CorporateAction } from '../../domain/corporate-action.js';
import type { SymbolSlot } from './book.js';
import { dateKey } from './market-days.js';

/** Where a carry books what it applies (the venue: books, orders, the cash-flow ledger). */
export interface CarryBooks {
  applyAction(action: CorporateAction, time: number): void;
  chargeBorrowFee(slot: SymbolSlot, days: number, time: number): void;
}

export class SymbolCarry {
  private next = 0;
  private lastDay: number | undefined;
  private readonly due: readonly number[];
  private readonly actions: readonly CorporateAction[];

  constructor(
    private readonly slot: SymbolSlot,
    actions: readonly CorporateAction[],
    private readonly chargesBorrowFee: boolean,
    private readonly books: CarryBooks,
  ) {
    this.actions = [...actions].sort((a, b) => (a.exDate < b.exDate ? -1 : a.exDate > b.exDate ? 1 : 0));
    this.due = this.actions.map((action) => dateKey(action.exDate));
  }

  /** Called before a price at `time` is marked: books what the days up to its market day carry. */
  advance(time: number): void {
    const day = this.slot.days.dayKey(time);
    if (day === this.lastDay) return;
    if (this.chargesBorrowFee && this.lastDay !== undefined && day > this.lastDay)
      this.books.chargeBorrowFee(this.slot, daysBetween(this.lastDay, day), time);
    while (this.next < this.actions.length && this.due[this.next]! <= day) this.books.applyAction(this.actions[this.next++]!, time);
    this.lastDay = day;
  }

  /**
   * A resumed account (the simulator's state file) was carried through `time`'s market day already: the
   * actions due by then are not applied again, and the borrow fee counts days from there.
   */
  carriedThrough(time: number): void {
    const day = this.slot.days.dayKey(time);
    while (this.next < this.actions.length && this.due[this.next]! <= day) this.next += 1;
    this.lastDay = day;
  }
}

/** Calendar days from one yyyymmdd day key to a later one. */
function daysBetween(from: number, to: number): number {
  const utc = (key: number): number => Date.UTC(Math.floor(key / 10_000), (Math.floor(key / 100) % 100) - 1, key % 100);
  return Math.round((utc(to) - utc(from)) / 86_400_000);
}
