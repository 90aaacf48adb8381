// The Broker port over the simulated venue, in process: every call acts at once on the venue and returns a
// settled promise, and the venue's order changes reach `reports` (the runtime's) and `orderUpdates`
// synchronously as they happen (a fill during a bar is in the runtime's books before the strategy sees that
// bar).
import { Observable } from 'rxjs';
import type { AccountBalance, BuyLimit, MarginRatio } from '../domain/account.js';
import type { Money } from '../domain/money.js';
import type { Order, OrderReplacement, OrderReport, OrderRequest, OrderUpdate } from '../domain/order.js';
import type { BrokerPosition } from '../domain/position.js';
import type { SecuritySymbol } from '../domain/symbol.js';
import { Broadcast } from '../execution/broadcast.js';
import {
  OrderRefusedError,
  type Broker,
  type BuyLimitQuery,
  type CarriedBooking,
  type HistoryOrderQuery,
  type ImmediateAnswers,
  type OrderQuery,
  type RiskFigures,
} from '../execution/broker.js';
import { Price } from '../domain/price.js';
import { Quantity } from '../domain/quantity.js';
import type { CarryNotice } from '../sim/venue/carry-notice.js';
import { noFees } from '../sim/venue/fees.js';
import type { Venue } from '../sim/venue/venue.js';

export class BacktestBroker implements Broker, ImmediateAnswers {
  readonly orderUpdates: Observable<OrderUpdate>;
  /** The venue answers in the caller's turn, so the executor may take the answers without promises. */
  readonly immediate: ImmediateAnswers = this;
  readonly carried: Observable<CarriedBooking>;
  readonly reports: Observable<OrderReport>;
  private readonly updates = new Broadcast<OrderUpdate>();
  private readonly reported = new Broadcast<OrderReport>();
  private readonly bookings = new Broadcast<CarriedBooking>();
  /** Whether the venue makes full updates for `orderUpdates` (from its first subscriber on). */
  private updating = false;

  constructor(readonly venue: Venue) {
    venue.onOrderReport((report) => this.reported.next(report));
    this.reports = this.reported.asObservable();
    this.orderUpdates = new Observable<OrderUpdate>((subscriber) => {
      if (!this.updating) {
        this.updating = true;
        venue.onOrderUpdate((update) => this.updates.next(update));
      }
      return this.updates.subscribe(subscriber);
    });
    this.carried = this.bookings.asObservable();
  }

  /** Tells the runtime what the venue just booked on a position (give it the venue's onCarry notices). */
  carryBooked(notice: CarryNotice): void {
    const cash = this.venue.cash(notice.kind === 'split' ? notice.cashInLieu.currency : notice.amount.currency);
    if (notice.kind !== 'split') {
      this.bookings.next({ symbol: notice.symbol, cash });
      return;
    }
    const held = this.venue.positions([notice.symbol])[0];
    const position =
      held === undefined ? { quantity: Quantity.ZERO, costPrice: Price.ZERO } : { quantity: held.quantity, costPrice: held.costPrice };
    this.bookings.next({ symbol: notice.symbol, cash, position });
  }

  /** A venue rejection (bad request, no buying power…) is a definite refusal: OrderRefusedError. */
  submit(request: OrderRequest): { readonly orderId: string } {
    const order = this.venue.place(request);
    if (order.status === 'RejectedStatus') throw new OrderRefusedError(order.message, { details: { orderId: order.orderId } });
    return order;
  }

  cashAfterFill(currency: string): Money | undefined {
    // Without fees a fill moves the venue's cash by its value alone, as the book moves its own.
    return this.venue.feeModel === noFees ? undefined : this.venue.cash(currency);
  }

  riskFigures(request: OrderRequest): RiskFigures {
    return {
      balances: this.venue.accountBalance(),
      buyLimit: this.venue.buyLimit(request),
      marginRatio: this.venue.marginRatio(request.symbol),
    };
  }

  // The calls of every order (submit and the risk figures) are written out instead of going through
  // attempt(): no closure per call.

  submitOrder(request: OrderRequest): Promise<{ readonly orderId: string }> {
    try {
      return Promise.resolve({ orderId: this.submit(request).orderId });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  cancelOrder(orderId: string): Promise<void> {
    return attempt(() => void this.venue.cancel(orderId));
  }

  replaceOrder(orderId: string, replacement: OrderReplacement): Promise<void> {
    return attempt(() => void this.venue.replace(orderId, replacement));
  }

  orderDetail(orderId: string): Promise<Order> {
    return attempt(() => this.venue.order(orderId));
  }

  todayOrders(query: OrderQuery = {}): Promise<readonly Order[]> {
    return attempt(() => this.venue.orders({ ...query, today: true }));
  }

  historyOrders(query: HistoryOrderQuery): Promise<readonly Order[]> {
    return attempt(() =>
      this.venue.orders({
        ...(query.symbol === undefined ? {} : { symbol: query.symbol }),
        ...(query.startAt === undefined ? {} : { since: query.startAt }),
        ...(query.endAt === undefined ? {} : { until: query.endAt }),
      }),
    );
  }

  accountBalance(currency?: string): Promise<readonly AccountBalance[]> {
    try {
      return Promise.resolve(this.venue.accountBalance(currency));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  positions(symbols?: readonly SecuritySymbol[]): Promise<readonly BrokerPosition[]> {
    return attempt(() => this.venue.positions(symbols));
  }

  estimateBuyLimit(query: BuyLimitQuery): Promise<BuyLimit> {
    try {
      return Promise.resolve(this.venue.buyLimit(query));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  marginRatio(symbol: SecuritySymbol): Promise<MarginRatio> {
    try {
      return Promise.resolve(this.venue.marginRatio(symbol));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Ends the update streams (the run is over). */
  close(): void {
    this.updates.complete();
    this.reported.complete();
    this.bookings.complete();
  }
}

// The port is asynchronous: a venue error becomes a rejected promise, never a synchronous throw.
function attempt<T>(action: () => T): Promise<T> {
  try {
    return Promise.resolve(action());
  } catch (error) {
    return Promise.reject(error);
  }
}
