// Executions. A fill is derived from the growth of an order's cumulative executed quantity, which makes
// duplicated and out-of-order reports harmless: the same cumulative quantity is the same fill.
import { Money } from './money.js';
import type { Side } from './order-types.js';
import { Price } from './price.js';
import type { Quantity } from './quantity.js';
import { currencyOf, marketOf, type SecuritySymbol } from './symbol.js';

export interface Fill {
  /** `<orderId>:<cumulative executed quantity after this fill>`: unique and stable across re-reports. */
  readonly fillId: string;
  readonly orderId: string;
  readonly symbol: SecuritySymbol;
  readonly side: Side;
  readonly quantity: Quantity;
  readonly price: Price;
  /** Epoch milliseconds. */
  readonly time: number;
  readonly commission: Money;
}

export interface ExecutionReport {
  readonly orderId: string;
  readonly symbol: SecuritySymbol;
  readonly side: Side;
  /** Cumulative executed quantity after the report. */
  readonly executedQuantity: Quantity;
  /** Average executed price after the report. */
  readonly executedPrice: Price | undefined;
  /** The last fill's own quantity and price, when the report carries them. */
  readonly lastShare?: Quantity | undefined;
  readonly lastPrice?: Price | undefined;
  readonly time: number;
}

/**
 * The fill a report adds on top of what was already known (`knownQuantity`, `knownAveragePrice`), or
 * undefined when it adds nothing (a duplicate or stale report). When the report lacks last_price, the
 * fill price is recovered from the change in the average price (Price.average's places).
 */
export function fillFromReport(report: ExecutionReport, knownQuantity: Quantity, knownAveragePrice: Price | undefined): Fill | undefined {
  const quantity = report.executedQuantity.minus(knownQuantity);
  if (!quantity.isPositive()) return undefined;
  let price: Price | undefined;
  const { lastPrice, lastShare } = report;
  const currency = currencyOf(marketOf(report.symbol));
  if (lastPrice !== undefined && lastPrice.isPositive() && lastShare !== undefined && lastShare.eq(quantity)) {
    price = lastPrice;
  } else if (report.executedPrice !== undefined) {
    const knownValue = Money.notional(knownQuantity, knownAveragePrice ?? Price.ZERO, currency);
    price = Price.average(Money.notional(report.executedQuantity, report.executedPrice, currency).minus(knownValue), quantity);
  }
  if (price === undefined) return undefined;
  return {
    fillId: `${report.orderId}:${report.executedQuantity.toString()}`,
    orderId: report.orderId,
    symbol: report.symbol,
    side: report.side,
    quantity,
    price,
    time: report.time,
    commission: Money.zero(currency),
  };
}
