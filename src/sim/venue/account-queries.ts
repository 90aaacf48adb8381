// The account's queries over its records and books, as the service answers them: which orders a filter
// takes, the positions, and the cash-flow ledger in time order.
import type { Fill } from '../../domain/fill.js';
import { isTerminal, type OrderStatus } from '../../domain/order-status.js';
import type { Side } from '../../domain/order-types.js';
import type { BrokerPosition } from '../../domain/position.js';
import { Quantity } from '../../domain/quantity.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import type { Book } from './book.js';
import { cashFlowsOfFill, type CashFlow } from './cash-flows.js';
import type { OrderRecord } from './orders.js';

export interface VenueOrderFilter {
  readonly symbol?: SecuritySymbol;
  readonly statuses?: readonly OrderStatus[];
  readonly side?: Side;
  readonly market?: string;
  readonly orderId?: string;
  /** Only orders submitted on the current market day, plus those still open. */
  readonly today?: boolean;
  /** Submission time range, epoch ms (inclusive start, exclusive end). */
  readonly since?: number;
  readonly until?: number;
}

export function takesOrder(filter: VenueOrderFilter, record: OrderRecord, now: number, book: Book): boolean {
  if (filter.symbol !== undefined && record.symbol !== filter.symbol) return false;
  if (filter.statuses !== undefined && filter.statuses.length > 0 && !filter.statuses.includes(record.status)) return false;
  if (filter.side !== undefined && record.side !== filter.side) return false;
  if (filter.market !== undefined && record.market !== filter.market) return false;
  if (filter.orderId !== undefined && record.orderId !== filter.orderId) return false;
  if (filter.since !== undefined && record.submittedAt < filter.since) return false;
  if (filter.until !== undefined && record.submittedAt >= filter.until) return false;
  if (filter.today === true && isTerminal(record.status)) {
    const days = book.marketDays(record.market);
    if (days.dayKey(record.submittedAt) !== days.dayKey(now)) return false;
  }
  return true;
}

/** The positions held (of `symbols`, when given), as the service lists them at `now`. */
export function positionsOf(
  book: Book,
  symbols: readonly SecuritySymbol[] | undefined,
  now: number,
  nameOf: (symbol: SecuritySymbol) => string,
): BrokerPosition[] {
  const result: BrokerPosition[] = [];
  for (const slot of book.slots.values()) {
    const held = slot.position;
    if (held === undefined || (symbols !== undefined && symbols.length > 0 && !symbols.includes(slot.symbol))) continue;
    const today = held.dayKey === slot.days.dayKey(now);
    const initQuantity = today ? held.initQuantity : held.position.quantity;
    const quantity = held.position.quantity;
    if (quantity.isZero()) continue;
    result.push({
      symbol: slot.symbol,
      symbolName: nameOf(slot.symbol),
      quantity,
      availableQuantity: quantity.lte(held.reservedSell) ? Quantity.ZERO : quantity.minus(held.reservedSell),
      initQuantity,
      costPrice: held.position.averageCost,
      currency: slot.ledger.currency,
      market: slot.market,
      accountChannel: 'lb',
    });
  }
  return result;
}

/** The fills' and the carry's rows merged in time order (both lists are; a carry row comes before fills at its instant). */
export function mergedCashFlows(fills: readonly Fill[], carryFlows: readonly CashFlow[]): CashFlow[] {
  const fillFlows = fills.flatMap(cashFlowsOfFill);
  if (carryFlows.length === 0) return fillFlows;
  const merged: CashFlow[] = [];
  let at = 0;
  for (const flow of carryFlows) {
    while (at < fillFlows.length && fillFlows[at]!.time < flow.time) merged.push(fillFlows[at++]!);
    merged.push(flow);
  }
  return merged.concat(fillFlows.slice(at));
}
