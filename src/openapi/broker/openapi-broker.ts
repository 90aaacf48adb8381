// The Broker port over the OpenAPI (live, and paper against the simulator): requests through the signed HTTP
// client, order changes from the trade connection's `private` topic. Submissions the service definitely
// refused become OrderRefusedError; every other failure is passed on as doubt (the executor looks the order
// up by its client order id before anything is sent again).
import type { Observable } from 'rxjs';
import type { AccountBalance, BuyLimit, MarginRatio } from '../../domain/account.js';
import type { Order, OrderReplacement, OrderRequest, OrderUpdate } from '../../domain/order.js';
import type { BrokerPosition } from '../../domain/position.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import {
  OrderRefusedError,
  UnknownSymbolError,
  type Broker,
  type BuyLimitQuery,
  type HistoryOrderQuery,
  type OrderQuery,
  type ReadOptions,
} from '../../execution/broker.js';
import type { OpenApiHttp } from '../http/client.js';
import type { TradeClient } from '../socket/trade-client.js';
import { describeSubmitFailure, isDefiniteRefusal, isUnknownSymbolAnswer } from './refusal.js';

/** Enough for any restart: each page holds up to a thousand orders. */
const MAX_HISTORY_PAGES = 20;

export class OpenApiBroker implements Broker {
  readonly orderUpdates: Observable<OrderUpdate>;

  /** `pacingMs`: the window of the HTTP client's rate limit (see Broker.pacingMs). */
  constructor(
    private readonly http: OpenApiHttp,
    trade: Pick<TradeClient, 'orderUpdates'>,
    readonly pacingMs = 0,
  ) {
    this.orderUpdates = trade.orderUpdates();
  }

  async submitOrder(request: OrderRequest): Promise<{ readonly orderId: string }> {
    try {
      return await this.http.submitOrder(request);
    } catch (error) {
      if (!isDefiniteRefusal(error)) throw error;
      throw new OrderRefusedError(`the service refused the order: ${describeSubmitFailure(error)}`, {
        cause: error,
        details: { serviceCode: error.serviceCode, httpStatus: error.httpStatus, traceId: error.traceId },
      });
    }
  }

  cancelOrder(orderId: string): Promise<void> {
    return this.http.cancelOrder(orderId);
  }

  replaceOrder(orderId: string, replacement: OrderReplacement): Promise<void> {
    return this.http.replaceOrder(orderId, replacement);
  }

  orderDetail(orderId: string): Promise<Order> {
    return this.http.orderDetail(orderId);
  }

  todayOrders(query?: OrderQuery): Promise<readonly Order[]> {
    return this.http.todayOrders(query);
  }

  /** Follows `has_more` by asking again for what was submitted before the oldest order of the last answer. */
  async historyOrders(query: HistoryOrderQuery): Promise<readonly Order[]> {
    const found = new Map<string, Order>();
    let endAt = query.endAt;
    for (let page = 0; page < MAX_HISTORY_PAGES; page += 1) {
      const answer = await this.http.historyOrders({
        ...(query.symbol === undefined ? {} : { symbol: query.symbol }),
        ...(query.startAt === undefined ? {} : { startAt: query.startAt }),
        ...(endAt === undefined ? {} : { endAt }),
      });
      for (const order of answer.orders) found.set(order.orderId, order);
      // Unix seconds on the wire: the next page ends at the second the oldest order was submitted in, inclusive.
      const oldest = Math.min(...answer.orders.map((order) => order.submittedAt));
      if (!answer.hasMore || answer.orders.length === 0 || (endAt !== undefined && oldest + 1000 >= endAt)) break;
      endAt = oldest + 1000;
    }
    return [...found.values()];
  }

  accountBalance(currency?: string, options?: ReadOptions): Promise<readonly AccountBalance[]> {
    return this.http.accountBalance(currency, options);
  }

  positions(symbols?: readonly SecuritySymbol[]): Promise<readonly BrokerPosition[]> {
    return this.http.positions(symbols);
  }

  estimateBuyLimit(query: BuyLimitQuery, options?: ReadOptions): Promise<BuyLimit> {
    return this.http.estimateBuyLimit(query, options).catch(unknownSymbol);
  }

  marginRatio(symbol: SecuritySymbol, options?: ReadOptions): Promise<MarginRatio> {
    return this.http.marginRatio(symbol, options).catch(unknownSymbol);
  }
}

/** The risk layer names an unknown symbol as such (UNKNOWN_SYMBOL) instead of "no risk figures". */
function unknownSymbol(error: unknown): never {
  if (isUnknownSymbolAnswer(error)) throw new UnknownSymbolError(error.serviceMessage || error.message, { cause: error });
  throw error;
}
