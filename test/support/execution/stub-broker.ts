// A hand-written in-memory venue implementing the Broker port, with programmable behaviour for tests:
// acknowledge, refuse, lose or hang the submit response, fail queries, and hold pushes to release them
// late, duplicated or out of order. Orders, positions and cash move only when the test says so (fill, cancel)
// or when `fillPrice` is set (market orders fill at once at that price). With `answersAtOnce` it also offers
// the order path's calls synchronously (ImmediateAnswers), as an in-process broker does.
import { Subject, type Observable } from 'rxjs';
import {
  Fixed,
  Money,
  Price,
  Quantity,
  isOpen,
  type AccountBalance,
  type BrokerPosition,
  type BuyLimit,
  type Clock,
  type MarginRatio,
  type Order,
  type OrderReplacement,
  type OrderRequest,
  type OrderStatus,
  type OrderUpdate,
  type SecuritySymbol,
} from '../../../src/domain/index.js';
import {
  OrderRefusedError,
  type Broker,
  type BuyLimitQuery,
  type HistoryOrderQuery,
  type ImmediateAnswers,
  type OrderQuery,
  type RiskFigures,
} from '../../../src/execution/broker.js';
import { TraderError } from '../../../src/domain/errors.js';

/** What the next submitOrder call does. */
export type SubmitBehaviour =
  | 'ack'
  /** The venue refuses: OrderRefusedError, no order created. */
  | 'refuse'
  /** The venue creates the order, but the response is lost (the call rejects like a 5xx/timeout). */
  | 'lose-response'
  /** The venue creates the order and the call never settles. */
  | 'hang'
  /** The request never reaches the venue; the call rejects like a network error. */
  | 'fail-before-venue';

type Method =
  | 'todayOrders'
  | 'historyOrders'
  | 'positions'
  | 'accountBalance'
  | 'estimateBuyLimit'
  | 'marginRatio'
  | 'cancelOrder'
  | 'orderDetail';

export interface StubBrokerOptions {
  readonly currency?: string;
  readonly cash?: number | string;
  readonly imFactor?: number | string;
  /** Offer risk figures and submits synchronously too (planned submits of 'hang' are then not allowed). */
  readonly answersAtOnce?: boolean;
}

export class StubBroker implements Broker {
  readonly submitted: OrderRequest[] = [];
  readonly cancelled: string[] = [];
  readonly calls: Record<Method | 'submitOrder', number> = {
    submitOrder: 0,
    todayOrders: 0,
    historyOrders: 0,
    positions: 0,
    accountBalance: 0,
    estimateBuyLimit: 0,
    marginRatio: 0,
    cancelOrder: 0,
    orderDetail: 0,
  };
  /** When set, market orders fill completely at this price right after they are acknowledged. */
  fillPrice: number | undefined;
  /** Hold pushes in `held` instead of sending them (release them with releaseHeld). */
  holdPushes = false;
  readonly held: OrderUpdate[] = [];
  buyLimit: BuyLimit = { cashMaxQty: Quantity.of(1_000_000), marginMaxQty: Quantity.of(1_000_000) };
  marginFactors: MarginRatio;
  readonly currency: string;
  cash: Money;
  readonly immediate: ImmediateAnswers | undefined;

  private updates = new Subject<OrderUpdate>();
  private readonly orders = new Map<string, Order>();
  private readonly earlierDays = new Set<string>();
  private readonly holdings = new Map<SecuritySymbol, { quantity: Quantity; cost: Price }>();
  /** Σ quantity × cost over the holdings (net assets value holdings at cost), kept as holdings change. */
  private holdingsAtCost: Money;
  private readonly submitPlan: SubmitBehaviour[] = [];
  private readonly failures = new Map<Method, unknown[]>();
  private sequence = 0;

  constructor(
    private readonly clock: Clock,
    options: StubBrokerOptions = {},
  ) {
    this.currency = options.currency ?? 'USD';
    this.cash = Money.of(options.cash ?? 1_000_000, this.currency);
    this.holdingsAtCost = Money.zero(this.currency);
    this.marginFactors = { imFactor: Fixed.of(options.imFactor ?? 1), mmFactor: Fixed.of(0.5), fmFactor: Fixed.of(0.3) };
    this.immediate =
      options.answersAtOnce === true
        ? {
            riskFigures: (request) => this.riskFiguresNow(request),
            // Its fills cost nothing beyond their value.
            cashAfterFill: () => undefined,
            submit: (request) => this.submitNow(request),
          }
        : undefined;
  }

  get orderUpdates(): Observable<OrderUpdate> {
    return this.updates.asObservable();
  }

  /** Ends the push stream of current subscribers (a process that died); later subscribers get a new one. */
  severPushes(): void {
    this.updates.complete();
    this.updates = new Subject<OrderUpdate>();
  }

  /** The behaviours of the next submits, in order; 'ack' after they run out. */
  planSubmits(...behaviours: SubmitBehaviour[]): void {
    this.submitPlan.push(...behaviours);
  }

  /** The next call of `method` rejects with `error`. */
  failNext(method: Method, error: unknown = new TraderError('HTTP_503', `${method}: 503 Service Unavailable`)): void {
    const queue = this.failures.get(method) ?? [];
    queue.push(error);
    this.failures.set(method, queue);
  }

  async submitOrder(request: OrderRequest): Promise<{ readonly orderId: string }> {
    const placed = this.place(request);
    return placed === 'hang' ? new Promise(() => undefined) : placed;
  }

  private submitNow(request: OrderRequest): { readonly orderId: string } {
    const placed = this.place(request);
    if (placed === 'hang') throw new Error('a submit answered at once cannot hang');
    return placed;
  }

  private place(request: OrderRequest): { readonly orderId: string } | 'hang' {
    this.calls.submitOrder += 1;
    this.submitted.push(request);
    const behaviour = this.submitPlan.shift() ?? 'ack';
    if (behaviour === 'refuse') throw new OrderRefusedError(`order refused: ${request.symbol} is not tradable`);
    if (behaviour === 'fail-before-venue') throw new TraderError('NETWORK', 'socket hang up');
    const order = this.create(request);
    if (behaviour === 'lose-response') throw new TraderError('HTTP_502', '502 Bad Gateway');
    if (behaviour === 'hang') return 'hang';
    if (this.fillPrice !== undefined && request.orderType === 'MO') this.fill(order.orderId, request.quantity, this.fillPrice);
    return { orderId: order.orderId };
  }

  private riskFiguresNow(_request: OrderRequest): RiskFigures {
    return { balances: this.balancesNow(), buyLimit: this.buyLimitNow(), marginRatio: this.marginRatioNow() };
  }

  async cancelOrder(orderId: string): Promise<void> {
    this.maybeFail('cancelOrder');
    this.cancelled.push(orderId);
    this.cancel(orderId);
  }

  async replaceOrder(orderId: string, replacement: OrderReplacement): Promise<void> {
    const order = this.order(orderId);
    this.change(
      order,
      { quantity: replacement.quantity, price: replacement.price ?? order.price, status: 'ReplacedStatus' },
      undefined,
      undefined,
    );
  }

  async orderDetail(orderId: string): Promise<Order> {
    this.maybeFail('orderDetail');
    return this.order(orderId);
  }

  async todayOrders(query: OrderQuery = {}): Promise<readonly Order[]> {
    this.maybeFail('todayOrders');
    return [...this.orders.values()].filter(
      (order) =>
        !this.earlierDays.has(order.orderId) &&
        (query.symbol === undefined || order.symbol === query.symbol) &&
        (query.orderId === undefined || order.orderId === query.orderId) &&
        (query.statuses === undefined || query.statuses.includes(order.status)),
    );
  }

  async historyOrders(query: HistoryOrderQuery): Promise<readonly Order[]> {
    this.maybeFail('historyOrders');
    return [...this.orders.values()].filter(
      (order) =>
        (query.symbol === undefined || order.symbol === query.symbol) &&
        (query.startAt === undefined || order.submittedAt >= query.startAt) &&
        (query.endAt === undefined || order.submittedAt < query.endAt),
    );
  }

  /** A new market day: finished orders leave today's list (they stay in the history list). */
  passDay(): void {
    for (const order of this.orders.values()) if (!isOpen(order.status)) this.earlierDays.add(order.orderId);
  }

  async accountBalance(): Promise<readonly AccountBalance[]> {
    return this.balancesNow();
  }

  private balancesNow(): readonly AccountBalance[] {
    this.maybeFail('accountBalance');
    const netAssets = this.cash.plus(this.holdingsAtCost);
    const zero = Money.zero(this.currency);
    return [
      {
        currency: this.currency,
        totalCash: this.cash,
        maxFinanceAmount: zero,
        remainingFinanceAmount: zero,
        riskLevel: 0,
        marginCall: zero,
        netAssets,
        initMargin: zero,
        maintenanceMargin: zero,
        buyPower: this.cash.isNegative() ? zero : this.cash,
        cashInfos: [],
        frozenTransactionFees: [],
      },
    ];
  }

  async positions(): Promise<readonly BrokerPosition[]> {
    this.maybeFail('positions');
    return [...this.holdings.entries()]
      .filter(([, holding]) => !holding.quantity.isZero())
      .map(([symbol, holding]) => ({
        symbol,
        symbolName: symbol,
        quantity: holding.quantity,
        availableQuantity: holding.quantity,
        initQuantity: undefined,
        costPrice: holding.cost,
        currency: this.currency,
        market: symbol.slice(symbol.lastIndexOf('.') + 1),
        accountChannel: 'lb',
      }));
  }

  async estimateBuyLimit(_query: BuyLimitQuery): Promise<BuyLimit> {
    return this.buyLimitNow();
  }

  async marginRatio(_symbol: SecuritySymbol): Promise<MarginRatio> {
    return this.marginRatioNow();
  }

  private buyLimitNow(): BuyLimit {
    this.maybeFail('estimateBuyLimit');
    return this.buyLimit;
  }

  private marginRatioNow(): MarginRatio {
    this.maybeFail('marginRatio');
    return this.marginFactors;
  }

  // ---- venue-side actions a test drives ----

  /** Sets a holding directly (e.g. a position from before the run, or a trade outside this runtime). */
  setPosition(symbol: SecuritySymbol, quantity: number | string, cost: number | string = 0): void {
    this.setHolding(symbol, Quantity.of(quantity), Price.of(cost));
  }

  /** Places an order as if from another app (no remark of ours). */
  placeForeign(request: OrderRequest): Order {
    return this.create(request);
  }

  /** Executes `quantity` more of an order at `price`, pushing the change. */
  fill(orderId: string, quantity: Quantity | number, price: number): void {
    const order = this.order(orderId);
    const lastShare = Quantity.of(quantity);
    const lastPrice = Price.of(price);
    const value = (amount: Quantity, at: Price): Money => Money.notional(amount, at, this.currency);
    const executedQuantity = order.executedQuantity.plus(lastShare);
    const executedPrice = Price.average(
      value(order.executedQuantity, order.executedPrice ?? Price.ZERO).plus(value(lastShare, lastPrice)),
      executedQuantity,
    );
    const status: OrderStatus = executedQuantity.gte(order.quantity) ? 'FilledStatus' : 'PartialFilledStatus';
    const signed = order.side === 'Buy' ? lastShare : lastShare.negated();
    const holding = this.holdings.get(order.symbol) ?? { quantity: Quantity.ZERO, cost: Price.ZERO };
    const after = holding.quantity.plus(signed);
    const cost = after.isZero()
      ? Price.ZERO
      : order.side === 'Buy'
        ? Price.average(value(holding.quantity, holding.cost).plus(value(lastShare, lastPrice)), after)
        : holding.cost;
    this.setHolding(order.symbol, after, cost);
    this.cash = order.side === 'Buy' ? this.cash.minus(value(lastShare, lastPrice)) : this.cash.plus(value(lastShare, lastPrice));
    this.change(order, { executedQuantity, executedPrice, status }, lastShare, lastPrice);
  }

  cancel(orderId: string): void {
    const order = this.order(orderId);
    if (!isOpen(order.status)) return;
    this.change(order, { status: order.executedQuantity.isPositive() ? 'PartialWithdrawal' : 'CanceledStatus' }, undefined, undefined);
  }

  /** Sends held pushes: in order, reversed, or each one twice. */
  releaseHeld(order: 'in-order' | 'reversed' | 'duplicated' = 'in-order'): void {
    const pushes = this.held.splice(0);
    const sequence = order === 'reversed' ? pushes.reverse() : order === 'duplicated' ? pushes.flatMap((push) => [push, push]) : pushes;
    for (const push of sequence) this.updates.next(push);
  }

  /** Re-sends a push exactly as it was (a duplicate). */
  push(update: OrderUpdate): void {
    this.updates.next(update);
  }

  order(orderId: string): Order {
    const order = this.orders.get(orderId);
    if (order === undefined) throw new TraderError('NOT_FOUND', `order ${orderId} not found`);
    return order;
  }

  allOrders(): readonly Order[] {
    return [...this.orders.values()];
  }

  private setHolding(symbol: SecuritySymbol, quantity: Quantity, cost: Price): void {
    const before = this.holdings.get(symbol);
    if (before !== undefined) this.holdingsAtCost = this.holdingsAtCost.minus(Money.notional(before.quantity, before.cost, this.currency));
    this.holdingsAtCost = this.holdingsAtCost.plus(Money.notional(quantity, cost, this.currency));
    this.holdings.set(symbol, { quantity, cost });
  }

  private create(request: OrderRequest): Order {
    this.sequence += 1;
    const now = this.clock.now();
    const order: Order = {
      orderId: `SO${this.sequence}`,
      status: 'NewStatus',
      symbol: request.symbol,
      stockName: request.symbol,
      side: request.side,
      orderType: request.orderType,
      quantity: request.quantity,
      executedQuantity: Quantity.ZERO,
      price: request.price,
      executedPrice: undefined,
      triggerPrice: request.triggerPrice,
      timeInForce: request.timeInForce,
      expireDate: request.expireDate,
      outsideRth: request.outsideRth,
      currency: this.currency,
      remark: request.remark ?? '',
      message: '',
      tag: 'Normal',
      triggerStatus: undefined,
      submittedAt: now,
      updatedAt: now,
    };
    this.orders.set(order.orderId, order);
    this.emit(order, undefined, undefined);
    return order;
  }

  private change(order: Order, fields: Partial<Order>, lastShare: Quantity | undefined, lastPrice: Price | undefined): void {
    const updated: Order = { ...order, ...fields, updatedAt: this.clock.now() };
    this.orders.set(order.orderId, updated);
    this.emit(updated, lastShare, lastPrice);
  }

  // Built field by field: spreading an order and adding fields is very slow in V8 (a new shape each time).
  private emit(order: Order, lastShare: Quantity | undefined, lastPrice: Price | undefined): void {
    const update: OrderUpdate = {
      orderId: order.orderId,
      status: order.status,
      symbol: order.symbol,
      stockName: order.stockName,
      side: order.side,
      orderType: order.orderType,
      quantity: order.quantity,
      executedQuantity: order.executedQuantity,
      price: order.price,
      executedPrice: order.executedPrice,
      triggerPrice: order.triggerPrice,
      timeInForce: order.timeInForce,
      expireDate: order.expireDate,
      outsideRth: order.outsideRth,
      currency: order.currency,
      remark: order.remark,
      message: order.message,
      tag: order.tag,
      triggerStatus: order.triggerStatus,
      submittedAt: order.submittedAt,
      updatedAt: order.updatedAt,
      lastShare,
      lastPrice,
      accountNo: 'STUB1',
    };
    if (this.holdPushes) this.held.push(update);
    else this.updates.next(update);
  }

  private maybeFail(method: Method): void {
    this.calls[method] += 1;
    const error = this.failures.get(method)?.shift();
    if (error !== undefined) throw error;
  }
}
