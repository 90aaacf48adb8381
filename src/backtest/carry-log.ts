// The carry a backtest's venue booked on positions (dividends, splits, borrow fees), kept for the trades
// and open positions (pairTrades). A short's borrow fee is booked every market day: the days between two
// fills of its symbol are kept as one entry, so a short held for years keeps a few entries, not thousands.
import type { Fill } from '../domain/fill.js';
import type { SecuritySymbol } from '../domain/symbol.js';
import type { CarryNotice } from '../sim/venue/carry-notice.js';

export class CarryLog {
  readonly entries: CarryNotice[] = [];
  /** Per symbol: its last borrow-fee entry, and the fill count it was checked through. */
  private readonly openFees = new Map<SecuritySymbol, { index: number; checked: number }>();

  constructor(private readonly fillAt: (index: number) => Fill | undefined) {}

  readonly add = (notice: CarryNotice): void => {
    if (notice.kind !== 'borrow-fee') {
      // A split may close part of a lot (cash in lieu): fees after it are told apart.
      if (notice.kind === 'split') this.openFees.delete(notice.symbol);
      this.entries.push(notice);
      return;
    }
    const open = this.openFees.get(notice.symbol);
    if (open !== undefined && !this.filledSince(notice.symbol, open.checked, notice.fills)) {
      const entry = this.entries[open.index] as CarryNotice & { kind: 'borrow-fee' };
      this.entries[open.index] = { ...entry, amount: entry.amount.plus(notice.amount) };
      open.checked = notice.fills;
      return;
    }
    this.openFees.set(notice.symbol, { index: this.entries.length, checked: notice.fills });
    this.entries.push(notice);
  };

  /** Whether a fill of `symbol` came between fill counts `from` and `to` (its lots may differ). */
  private filledSince(symbol: SecuritySymbol, from: number, to: number): boolean {
    for (let index = from; index < to; index += 1) if (this.fillAt(index)?.symbol === symbol) return true;
    return false;
  }
}
