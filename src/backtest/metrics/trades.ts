// Round trips from fills: FIFO lot matching per symbol, with partial closes and reversals, in exact decimals;
// the venue's carry (splits, dividends, borrow fees) applied to the lots it was booked on.
import type { Fill } from '../../domain/fill.js';
import type { Fixed } from '../../domain/fixed.js';
import { EXTRA_PLACES } from '../../domain/fixed-raw.js';
import { Money } from '../../domain/money.js';
import { Price } from '../../domain/price.js';
import type { Quantity } from '../../domain/quantity.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import type { CarryNotice } from '../../sim/venue/carry-notice.js';

export type PositionSide = 'Long' | 'Short';

/** The exit order id of a trade closed by a split's cash in lieu (there is no order). */
export const CASH_IN_LIEU = 'cash-in-lieu';

/** An entry lot (or the part of one) closed by one exit fill, or by a split's cash in lieu. */
export interface ClosedTrade {
  readonly symbol: SecuritySymbol;
  readonly side: PositionSide;
  /** In shares after any split while it was open. */
  readonly quantity: Quantity;
  readonly entryTime: number;
  /** The entry fill's price ÷ the splits while it was open (rounded when a split does not divide it). */
  readonly entryPrice: Price;
  readonly exitTime: number;
  readonly exitPrice: Price;
  /** Entry value of `quantity` (exact: a split changes the quantity and the price, not the value). */
  readonly cost: Money;
  /** The entry and exit fills' commissions attributed to this quantity. */
  readonly commission: Money;
  /** Dividends paid on it while open (negative: charged to a short). */
  readonly dividends: Money;
  /** Borrow fees a short paid on it while open. */
  readonly borrowFees: Money;
  /** (exit value − cost) (negated for shorts) − commission + dividends − borrowFees. */
  readonly pnl: Money;
  /** The orders of the entry and the exit fill (their tags name the trade's entry and exit); CASH_IN_LIEU. */
  readonly entryOrderId: string;
  readonly exitOrderId: string;
}

/**
 * What is left of an entry fill after the last fill; `commission`, `dividends` and `borrowFees` are the parts
 * not yet attributed to a trade.
 */
export interface OpenLot {
  readonly symbol: SecuritySymbol;
  readonly side: PositionSide;
  readonly quantity: Quantity;
  readonly entryTime: number;
  readonly entryPrice: Price;
  readonly cost: Money;
  readonly commission: Money;
  readonly dividends: Money;
  readonly borrowFees: Money;
  readonly entryOrderId: string;
}

export interface TradeLedger {
  /** In the order they were closed. */
  readonly closed: readonly ClosedTrade[];
  /** Per symbol oldest first; all lots of a symbol share one side. */
  readonly open: readonly OpenLot[];
}

/**
 * Decimal places of a pro-rata share (commission, dividend, fee, a split lot's cost; rounded half-even).
 * Every later subtraction and sum is exact, so the pieces add up to the whole.
 */
export const SHARE_PLACES = 10;

interface Lot {
  quantity: Quantity;
  cost: Money;
  commission: Money;
  dividends: Money;
  borrowFees: Money;
  entryPrice: Price;
  /** Split while open: its cost is no longer entryPrice × quantity exactly. */
  split: boolean;
  readonly side: PositionSide;
  readonly entryTime: number;
  readonly entryOrderId: string;
}

/** How a lot is closed: by a fill, or by a split's cash in lieu. */
interface Exit {
  readonly time: number;
  readonly price: Price;
  readonly orderId: string;
}

/**
 * Pairs fills into trades. A fill on the side of the open lots (or when flat) opens a lot; an opposite fill
 * closes the oldest lots first, one trade per lot touched, and any remainder opens a lot the other way.
 * `carry` (the venue's, in booking order) is applied between the fills it came between: a split multiplies
 * the lots' quantities and divides their prices, its fractional share (cash in lieu) closing the oldest
 * first; dividends and borrow fees are spread over the symbol's lots by quantity. Every amount is split pro
 * rata (rounded to SHARE_PLACES), the last piece taking the remainder, so the pieces add up exactly: Σ
 * closed.pnl + Σ open ((mark × qty − cost) × direction − commission + dividends − borrowFees) equals the
 * account's equity change (the property tests check it).
 */
export function pairTrades(fills: readonly Fill[], carry: readonly CarryNotice[] = []): TradeLedger {
  const books = new Map<SecuritySymbol, Lot[]>();
  const closed: ClosedTrade[] = [];
  const lotsOf = (symbol: SecuritySymbol): Lot[] => {
    let lots = books.get(symbol);
    if (lots === undefined) {
      lots = [];
      books.set(symbol, lots);
    }
    return lots;
  };
  let nextCarry = 0;
  for (let index = 0; index < fills.length; index += 1) {
    while (nextCarry < carry.length && carry[nextCarry]!.fills <= index) applyCarry(carry[nextCarry++]!, lotsOf, closed);
    const fill = fills[index]!;
    const lots = lotsOf(fill.symbol);
    const fillSide: PositionSide = fill.side === 'Buy' ? 'Long' : 'Short';
    const exit: Exit = { time: fill.time, price: fill.price, orderId: fill.orderId };
    let remaining = fill.quantity;
    let commissionLeft = fill.commission;
    while (remaining.isPositive() && lots.length > 0 && lots[0]!.side !== fillSide) {
      const quantity = remaining.lt(lots[0]!.quantity) ? remaining : lots[0]!.quantity;
      const exitCommission = quantity.eq(remaining) ? commissionLeft : share(commissionLeft, quantity, remaining);
      closed.push(
        closePart(fill.symbol, lots, quantity, Money.notional(quantity, fill.price, fill.commission.currency), exitCommission, exit),
      );
      remaining = remaining.minus(quantity);
      commissionLeft = commissionLeft.minus(exitCommission);
    }
    if (remaining.isPositive()) {
      const zero = Money.zero(fill.commission.currency);
      lots.push({
        quantity: remaining,
        cost: Money.notional(remaining, fill.price, fill.commission.currency),
        commission: commissionLeft,
        dividends: zero,
        borrowFees: zero,
        entryPrice: fill.price,
        split: false,
        side: fillSide,
        entryTime: fill.time,
        entryOrderId: fill.orderId,
      });
    }
  }
  while (nextCarry < carry.length) applyCarry(carry[nextCarry++]!, lotsOf, closed);
  const open: OpenLot[] = [];
  for (const [symbol, lots] of books) {
    for (const { split: _split, ...lot } of lots) open.push({ symbol, ...lot });
  }
  return { closed, open };
}

/** Closes `quantity` of the oldest lot for `exitValue` (what it sold or bought back for), dropping it when emptied. */
function closePart(
  symbol: SecuritySymbol,
  lots: Lot[],
  quantity: Quantity,
  exitValue: Money,
  exitCommission: Money,
  exit: Exit,
): ClosedTrade {
  const lot = lots[0]!;
  const whole = quantity.eq(lot.quantity);
  const part = (amount: Money): Money => (whole ? amount : share(amount, quantity, lot.quantity));
  // An unsplit lot's cost is entry price × quantity exactly; a split one's is shared out.
  const cost = whole
    ? lot.cost
    : lot.split
      ? share(lot.cost, quantity, lot.quantity)
      : Money.notional(quantity, lot.entryPrice, lot.cost.currency);
  const entryCommission = part(lot.commission);
  const dividends = part(lot.dividends);
  const borrowFees = part(lot.borrowFees);
  const commission = entryCommission.plus(exitCommission);
  const gross = lot.side === 'Long' ? exitValue.minus(cost) : cost.minus(exitValue);
  lot.quantity = lot.quantity.minus(quantity);
  lot.cost = lot.cost.minus(cost);
  lot.commission = lot.commission.minus(entryCommission);
  lot.dividends = lot.dividends.minus(dividends);
  lot.borrowFees = lot.borrowFees.minus(borrowFees);
  if (lot.quantity.isZero()) lots.shift();
  return {
    symbol,
    side: lot.side,
    quantity,
    entryTime: lot.entryTime,
    entryPrice: lot.entryPrice,
    exitTime: exit.time,
    exitPrice: exit.price,
    cost,
    commission,
    dividends,
    borrowFees,
    pnl: gross.minus(commission).plus(dividends).minus(borrowFees),
    entryOrderId: lot.entryOrderId,
    exitOrderId: exit.orderId,
  };
}

function applyCarry(notice: CarryNotice, lotsOf: (symbol: SecuritySymbol) => Lot[], closed: ClosedTrade[]): void {
  const lots = lotsOf(notice.symbol);
  if (lots.length === 0) return;
  if (notice.kind === 'dividend') spread(lots, notice.amount, 'dividends');
  else if (notice.kind === 'borrow-fee') spread(lots, notice.amount, 'borrowFees');
  else splitLots(notice.symbol, lots, notice.ratio, notice.cashInLieu, notice.time, closed);
}

/** Spreads `amount` over the lots by quantity, the last lot taking the remainder. */
function spread(lots: Lot[], amount: Money, field: 'dividends' | 'borrowFees'): void {
  let total = lots[0]!.quantity;
  for (let index = 1; index < lots.length; index += 1) total = total.plus(lots[index]!.quantity);
  let left = amount;
  for (let index = 0; index < lots.length; index += 1) {
    const lot = lots[index]!;
    const piece = index === lots.length - 1 ? left : share(amount, lot.quantity, total);
    lot[field] = lot[field].plus(piece);
    left = left.minus(piece);
  }
}

/**
 * Splits the lots as the venue splits the position: quantities × ratio, prices ÷ ratio, costs kept. The
 * fraction of a share the position is left with was paid in cash (`cashInLieu`, negative for a short): it
 * closes that much of the oldest lots, the cash shared among them by quantity.
 */
function splitLots(symbol: SecuritySymbol, lots: Lot[], ratio: Fixed, cashInLieu: Money, time: number, closed: ClosedTrade[]): void {
  let total = undefined as Quantity | undefined;
  for (const lot of lots) {
    lot.quantity = lot.quantity.times(ratio);
    lot.entryPrice = lot.entryPrice.dividedBy(ratio, lot.entryPrice.precision + EXTRA_PLACES).normalized();
    lot.split = true;
    total = total === undefined ? lot.quantity : total.plus(lot.quantity);
  }
  const fraction = total!.minus(total!.roundTo(0, 'down'));
  if (!fraction.isPositive()) return;
  const paid = cashInLieu.abs();
  const exit: Exit = { time, price: Price.average(paid, fraction), orderId: CASH_IN_LIEU };
  const zero = Money.zero(cashInLieu.currency);
  let remaining = fraction;
  let paidLeft = paid;
  while (remaining.isPositive()) {
    const quantity = remaining.lt(lots[0]!.quantity) ? remaining : lots[0]!.quantity;
    const value = quantity.eq(remaining) ? paidLeft : share(paid, quantity, fraction);
    closed.push(closePart(symbol, lots, quantity, value, zero, exit));
    remaining = remaining.minus(quantity);
    paidLeft = paidLeft.minus(value);
  }
}

function share(amount: Money, part: Quantity, whole: Quantity): Money {
  return amount.times(part).dividedBy(whole, SHARE_PLACES).normalized();
}
