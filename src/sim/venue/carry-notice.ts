// What a venue tells a listener each time it books carry on a position (a backtest attributes it to the FIFO
// lots of its trades, see backtest/metrics/trades.ts). Told only when carry happens: runs without pay nothing.
import type { Fixed } from '../../domain/fixed.js';
import type { Money } from '../../domain/money.js';
import type { SecuritySymbol } from '../../domain/symbol.js';

/**
 * `dividend`: paid to a long position (positive) or charged to a short one (negative). `borrow-fee`: what a
 * short position paid (positive). `split`: a held position split; `cashInLieu` is what its fractional share
 * was paid (negative: a short paid it; zero without one).
 */
export type CarryNoticeBody =
  | { readonly kind: 'dividend'; readonly amount: Money }
  | { readonly kind: 'borrow-fee'; readonly amount: Money }
  | { readonly kind: 'split'; readonly ratio: Fixed; readonly cashInLieu: Money };

export type CarryNotice = CarryNoticeBody & {
  readonly symbol: SecuritySymbol;
  /** Epoch ms of the price it was booked before. */
  readonly time: number;
  /** How many fills the venue had made before it: it goes between fills[fills - 1] and fills[fills]. */
  readonly fills: number;
};

/** The cash a booking moved, signed (negative: taken from the account). */
export function carriedCash(notice: CarryNoticeBody): Money {
  switch (notice.kind) {
    case 'dividend':
      return notice.amount;
    case 'borrow-fee':
      return notice.amount.negated();
    case 'split':
      return notice.cashInLieu;
  }
}
