// The Broker port: everything the runtime needs from a venue. Implemented by the OpenAPI broker (live and
// paper, over the real protocol) and by the in-process backtest broker; one contract suite tests both.
import type { Observable } from 'rxjs';
import { TraderError } from '../domain/errors.js';
import type {
  AccountBalance,
  BrokerPosition,
  BuyLimit,
  MarginRatio,
  Money,
  Order,
  OrderReplacement,
  OrderReport,
  OrderRequest,
  OrderStatus,
  OrderType,
  OrderUpdate,
  Price,
  Quantity,
  SecuritySymbol,
  Side,
} from '../domain/index.js';

export interface OrderQuery {
  readonly symbol?: SecuritySymbol;
  readonly statuses?: readonly OrderStatus[];
  readonly side?: Side;
  readonly market?: string;
  readonly orderId?: string;
}

/** Orders of earlier days (the venue's history list); times in epoch ms. */
export interface HistoryOrderQuery {
  readonly symbol?: SecuritySymbol;
  /** Submitted at or after. */
  readonly startAt?: number;
  /** Submitted before; now when omitted. */
  readonly endAt?: number;
}

export interface BuyLimitQuery {
  readonly symbol: SecuritySymbol;
  readonly orderType: OrderType;
  readonly side: Side;
  readonly price?: Price;
  readonly currency?: string;
  readonly fractionalShares?: boolean;
}

/** How a read may be called off: a caller done with it withdraws it while it waits for its turn. */
export interface ReadOptions {
  /** Aborted: the read, still held by the broker's own pacing (Broker.pacingMs), is not sent and rejects. */
  readonly signal?: AbortSignal;
}

export interface Broker {
  /**
   * The longest the broker's own call pacing (a client-side rate limit) may hold a call before sending it:
   * the executor waits that much longer for an order's risk figures and for the submission itself, so a
   * strategy that trades faster than the limit waits rather than being denied, and a submit still queued is
   * never given up on before it is sent. (Its calls time out by themselves once sent.)
   */
  readonly pacingMs?: number;
  /** Submits one order. Never retried blindly by implementations: a lost response is the caller's to resolve. */
  submitOrder(request: OrderRequest): Promise<{ readonly orderId: string }>;
  cancelOrder(orderId: string): Promise<void>;
  replaceOrder(orderId: string, replacement: OrderReplacement): Promise<void>;
  orderDetail(orderId: string): Promise<Order>;
  todayOrders(query?: OrderQuery): Promise<readonly Order[]>;
  /** Orders submitted in a time range, earlier days included (to find an order whose day has passed). */
  historyOrders(query: HistoryOrderQuery): Promise<readonly Order[]>;
  accountBalance(currency?: string, options?: ReadOptions): Promise<readonly AccountBalance[]>;
  positions(symbols?: readonly SecuritySymbol[]): Promise<readonly BrokerPosition[]>;
  estimateBuyLimit(query: BuyLimitQuery, options?: ReadOptions): Promise<BuyLimit>;
  marginRatio(symbol: SecuritySymbol, options?: ReadOptions): Promise<MarginRatio>;
  /** Order changes as the venue pushes them: possibly late, duplicated or out of order. */
  readonly orderUpdates: Observable<OrderUpdate>;
  /** Present when the broker answers in the caller's turn (the backtest's venue, in process). */
  readonly immediate?: ImmediateAnswers;
}

/** The figures one risk decision is taken on (what accountBalance, estimateBuyLimit and marginRatio answer). */
export interface RiskFigures {
  readonly balances: readonly AccountBalance[];
  readonly buyLimit: BuyLimit;
  readonly marginRatio: MarginRatio;
}

/**
 * The order path's calls answered at once, for a broker that acts in process: the executor then decides
 * and submits without promise hops or request timers (a backtest places tens of thousands of orders).
 * Each answer means what the matching Broker call's would: a thrown OrderRefusedError is a refusal, any
 * other throw a failed request.
 */
export interface ImmediateAnswers {
  /** accountBalance(), estimateBuyLimit for the request's symbol, type, side and price, marginRatio(symbol). */
  riskFigures(request: OrderRequest): RiskFigures;
  /**
   * The account's cash in `currency`, read after each fill, whose fees the order reports do not carry;
   * undefined when fills cost nothing beyond their value (the book's cash is then the broker's already).
   */
  cashAfterFill(currency: string): Money | undefined;
  submit(request: OrderRequest): { readonly orderId: string };
  /**
   * The order changes as they happen, as compact reports: the runtime follows these instead of orderUpdates,
   * so no full update is made for each change (a backtest's orders make two each).
   */
  readonly reports?: Observable<OrderReport>;
  /**
   * What the broker books between fills (a split's shares, a dividend's or a borrow fee's cash), as it books
   * it, so strategies see the position and size on the cash before the next fill. A broker reached over the
   * wire has no such stream: reconciliation takes its positions and balances instead.
   */
  readonly carried?: Observable<CarriedBooking>;
}

/** The cash, and a split's position, after the broker booked carry on a symbol (see ImmediateAnswers.carried). */
export interface CarriedBooking {
  readonly symbol: SecuritySymbol;
  /** The cash of the symbol's currency. */
  readonly cash: Money;
  /** Present when the booking changed the position (a split): signed, zero when nothing is left. */
  readonly position?: { readonly quantity: Quantity; readonly costPrice: Price };
}

/**
 * Thrown by submitOrder when the venue definitely did not create the order (a business rejection such as
 * an invalid price or an unknown symbol). Any other error from submitOrder means the outcome is unknown:
 * the executor then looks the order up by its client order id (remark) instead of sending it again.
 */
export class OrderRefusedError extends TraderError {
  constructor(message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super('ORDER_REFUSED', message, options);
  }
}

/** The code of a broker error that means "no such symbol here" (the simulated venue's own errors carry it too). */
export const UNKNOWN_SYMBOL_CODE = 'UNKNOWN_SYMBOL';

/** Thrown (or rejected with) by a broker whose venue does not know the symbol asked about. */
export class UnknownSymbolError extends TraderError {
  constructor(message: string, options?: { cause?: unknown; details?: Record<string, unknown> }) {
    super(UNKNOWN_SYMBOL_CODE, message, options);
  }
}

export function isUnknownSymbolError(error: unknown): boolean {
  return error instanceof TraderError && error.code === UNKNOWN_SYMBOL_CODE;
}
