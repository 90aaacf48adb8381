// Executions. A fill is derived from the growth of an order's cumulative executed quantity, which makes
// duplicated and out-of-order reports harmless: the same cumulative quantity is the same fill.
import { ZERO, type Decimal } from './decimal.js';
import { eq, isPositive, minus, toFixed } from './decimal-shortcuts.js';
import type { Side } from './order-types.js';
import type { SecuritySymbol } from './symbol.js';

export interface Fill {
  /** `<orderId>:<cumulative executed quantity after this fill>`: unique and stable across re-reports. */
  readonly fillId: string;
  readonly orderId: string;
  readonly symbol: SecuritySymbol;
  readonly side: Side;
  readonly quantity: Decimal;
  readonly price: Decimal;
  /** Epoch milliseconds. */
  readonly time: number;
  readonly commission: Decimal;
}

export interface ExecutionReport {
  readonly orderId: string;
  readonly symbol: SecuritySymbol;
  readonly side: Side;
  /** Cumulative executed quantity after the report. */
  readonly executedQuantity: Decimal;
  /** Average executed price after the report. */
  readonly executedPrice: Decimal | undefined;
  /** The last fill's own quantity and price, when the report carries them. */
  readonly lastShare?: Decimal | undefined;
  readonly lastPrice?: Decimal | undefined;
  readonly time: number;
}

/**
 * The fill a report adds on top of what was already known (`knownQuantity`, `knownAveragePrice`), or
 * undefined when it adds nothing (a duplicate or stale report). When the report lacks last_price, the
 * fill price is recovered from the change in the average price.
 */
export function fillFromReport(report: ExecutionReport, knownQuantity: Decimal, knownAveragePrice: Decimal | undefined): Fill | undefined {
  const quantity = minus(report.executedQuantity, knownQuantity);
  if (quantity.isZero() || quantity.isNegative()) return undefined;
  let price: Decimal | undefined;
  const { lastPrice, lastShare } = report;
  if (lastPrice !== undefined && isPositive(lastPrice) && lastShare !== undefined && eq(lastShare, quantity)) {
    price = report.lastPrice;
  } else if (report.executedPrice !== undefined) {
    const knownValue = knownQuantity.times(knownAveragePrice ?? ZERO);
    price = report.executedPrice.times(report.executedQuantity).minus(knownValue).dividedBy(quantity);
  }
  if (price === undefined) return undefined;
  return {
    fillId: `${report.orderId}:${toFixed(report.executedQuantity)}`,
    orderId: report.orderId,
    symbol: report.symbol,
    side: report.side,
    quantity,
    price,
    time: report.time,
    commission: ZERO,
  };
}
