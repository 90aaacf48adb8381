// Round trips from fills: FIFO lot matching per symbol, with partial closes and reversals, in exact decimals.
import type { Fill } from '../../domain/fill.js';
import { Money } from '../../domain/money.js';
import type { Price } from '../../domain/price.js';
import type { Quantity } from '../../domain/quantity.js';
import type { SecuritySymbol } from '../../domain/symbol.js';

export type PositionSide = 'Long' | 'Short';

/** An entry lot (or the part of one) closed by one exit fill. */
export interface ClosedTrade {
  readonly symbol: SecuritySymbol;
  readonly side: PositionSide;
  readonly quantity: Quantity;
  readonly entryTime: number;
  readonly entryPrice: Price;
  readonly exitTime: number;
  readonly exitPrice: Price;
  /** The entry and exit fills' commissions attributed to this quantity. */
  readonly commission: Money;
  /** (exit − entry) × quantity (negated for shorts) − commission. */
  readonly pnl: Money;
  /** The orders of the entry and the exit fill (their tags name the trade's entry and exit). */
  readonly entryOrderId: string;
  readonly exitOrderId: string;
}

/** What is left of an entry fill after the last fill; `commission` is the part of its commission not yet attributed. */
export interface OpenLot {
  readonly symbol: SecuritySymbol;
  readonly side: PositionSide;
  readonly quantity: Quantity;
  readonly entryTime: number;
  readonly entryPrice: Price;
  readonly commission: Money;
  readonly entryOrderId: string;
}

export interface TradeLedger {
  /** In the order they were closed. */
  readonly closed: readonly ClosedTrade[];
  /** Per symbol oldest first; all lots of a symbol share one side. */
  readonly open: readonly OpenLot[];
}

/**
 * Decimal places of a pro-rata commission share (rounded half-even). Every later subtraction and sum is
 * exact, so the pieces add up to the whole.
 */
export const SHARE_PLACES = 10;

interface Lot {
  quantity: Quantity;
  commission: Money;
  readonly side: PositionSide;
  readonly entryTime: number;
  readonly entryPrice: Price;
  readonly entryOrderId: string;
}

/**
 * Pairs fills into trades. A fill on the side of the open lots (or when flat) opens a lot; an opposite fill
 * closes the oldest lots first, one trade per lot touched, and any remainder opens a lot the other way.
 * Commissions are split pro rata by quantity (rounded to SHARE_PLACES), the last piece taking the
 * remainder, so the pieces of each commission add up to it exactly: Σ closed.pnl + Σ open (mark − entry) × qty × direction − Σ open.commission
 * equals the cash-and-mark equity change of the fills (the property test checks it).
 */
export function pairTrades(fills: readonly Fill[]): TradeLedger {
  const books = new Map<SecuritySymbol, Lot[]>();
  const closed: ClosedTrade[] = [];
  for (const fill of fills) {
    let lots = books.get(fill.symbol);
    if (lots === undefined) {
      lots = [];
      books.set(fill.symbol, lots);
    }
    const fillSide: PositionSide = fill.side === 'Buy' ? 'Long' : 'Short';
    let remaining = fill.quantity;
    let commissionLeft = fill.commission;
    while (remaining.isPositive() && lots.length > 0 && lots[0]!.side !== fillSide) {
      const lot = lots[0]!;
      const quantity = remaining.lt(lot.quantity) ? remaining : lot.quantity;
      const entryCommission = quantity.eq(lot.quantity) ? lot.commission : share(lot.commission, quantity, lot.quantity);
      const exitCommission = quantity.eq(remaining) ? commissionLeft : share(commissionLeft, quantity, remaining);
      const commission = entryCommission.plus(exitCommission);
      const gross = Money.notional(quantity, fill.price.minus(lot.entryPrice), fill.commission.currency);
      closed.push({
        symbol: fill.symbol,
        side: lot.side,
        quantity,
        entryTime: lot.entryTime,
        entryPrice: lot.entryPrice,
        exitTime: fill.time,
        exitPrice: fill.price,
        commission,
        pnl: (lot.side === 'Long' ? gross : gross.negated()).minus(commission),
        entryOrderId: lot.entryOrderId,
        exitOrderId: fill.orderId,
      });
      lot.quantity = lot.quantity.minus(quantity);
      lot.commission = lot.commission.minus(entryCommission);
      remaining = remaining.minus(quantity);
      commissionLeft = commissionLeft.minus(exitCommission);
      if (lot.quantity.isZero()) lots.shift();
    }
    if (remaining.isPositive()) {
      lots.push({
        quantity: remaining,
        commission: commissionLeft,
        side: fillSide,
        entryTime: fill.time,
        entryPrice: fill.price,
        entryOrderId: fill.orderId,
      });
    }
  }
  const open: OpenLot[] = [];
  for (const [symbol, lots] of books) {
    for (const lot of lots) open.push({ symbol, ...lot });
  }
  return { closed, open };
}

function share(commission: Money, part: Quantity, whole: Quantity): Money {
  return commission.times(part).dividedBy(whole, SHARE_PLACES).normalized();
}
