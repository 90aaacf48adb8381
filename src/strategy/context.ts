// What a running strategy can see and do: its market streams, its orders and denials, synchronous reads of
// positions and account, the clock, a logger and intent helpers. Defined here in domain terms; the runtime
// adapts the MarketData and Broker ports into it.
import type { Observable, SchedulerLike } from 'rxjs';
import type {
  AccountBalance,
  Candle,
  Clock,
  ExitSpec,
  Fill,
  FixedInput,
  Money,
  OrderIntent,
  OrderStatus,
  OrderType,
  OutsideRth,
  Period,
  Position,
  Price,
  Quantity,
  Quote,
  SecuritySymbol,
  Side,
  TimeInForce,
} from '../domain/index.js';

/** Anything a helper accepts as a quantity or price: numbers are read via their shortest decimal text. */
export type DecimalInput = FixedInput;

export interface IntentOptions {
  /** Defaults to the strategy's first symbol. */
  readonly symbol?: SecuritySymbol | string;
  /** A limit price: makes the order LO unless `orderType` says otherwise. */
  readonly price?: DecimalInput;
  readonly triggerPrice?: DecimalInput;
  /** TSLPAMT (trailing stop by amount): how far the trigger trails the best price, in price units. */
  readonly trailingAmount?: DecimalInput;
  /** TSLPPCT (trailing stop by percent): how far the trigger trails, in percent (5 = 5 %, as the service). */
  readonly trailingPercent?: DecimalInput;
  /** TSLPAMT / TSLPPCT: the limit's distance beyond the trigger once touched (default 0). */
  readonly limitOffset?: DecimalInput;
  readonly orderType?: OrderType;
  readonly timeInForce?: TimeInForce;
  readonly expireDate?: string;
  readonly outsideRth?: OutsideRth;
  /** Why: journaled and logged with the intent. */
  readonly reason?: string;
  /** A label carried into the order, its fills and trades (JSON, summary, report, logs): tells exits apart. */
  readonly tag?: string;
  /**
   * Exits attached to this entry (buy, sell, target): stop-loss, take-profit and trailing stop, each as
   * `{ percent: 0.05 }` of the average cost or `{ amount: 2.5 }` in price units. The runtime holds them while
   * the position is open, closes it (tagged 'stop-loss', 'take-profit' or 'trailing-stop') when a closed bar
   * reaches one, and drops them when the position is closed or reversed otherwise. They replace the symbol's
   * earlier exits unless this entry is denied; paper and live runs journal them, so a restart re-arms them.
   */
  readonly exits?: ExitSpec;
}

/** A strategy's intent that did not become an order, with the stable code and the figures behind it. */
export interface IntentDenial {
  readonly intent: OrderIntent;
  readonly code: string;
  readonly message: string;
  /** The numbers the decision was based on, as decimal strings (e.g. required, available). */
  readonly figures: Readonly<Record<string, string>>;
  readonly time: number;
}

/** A change of one of this strategy's orders (a status change, a fill, or both). */
export interface StrategyOrderUpdate {
  readonly clientOrderId: string;
  readonly orderId: string | undefined;
  readonly symbol: SecuritySymbol;
  readonly side: Side;
  readonly orderType: OrderType;
  readonly status: OrderStatus;
  readonly quantity: Quantity;
  readonly executedQuantity: Quantity;
  readonly averagePrice: Price | undefined;
  /** The fill this change reports, if any. */
  readonly fill: Fill | undefined;
  readonly message: string;
  /** The tag of the intent that placed the order. */
  readonly tag: string | undefined;
}

/** Synchronous reads of the executor's position book (kept consistent with the broker). */
export interface PositionsView {
  /** Signed quantity (negative = short); zero when flat. `symbol` defaults to the strategy's first symbol. */
  quantity(symbol?: SecuritySymbol | string): Quantity;
  /**
   * The position: `quantity` (signed), `averageCost` (average entry price of the open quantity, zero when
   * flat) and `realizedPnl` (closed trades, net of commissions). Undefined before the first fill.
   */
  get(symbol?: SecuritySymbol | string): Position | undefined;
  all(): readonly Position[];
  /** (last price − average cost) × quantity, in the symbol's currency; zero when flat or before any price. */
  unrealizedPnl(symbol?: SecuritySymbol | string): Money;
}

/** The latest account figures the runtime has fetched (at start, per intent and on reconciliation). */
export interface AccountView {
  /** The balance in `currency`, or the first one reported when omitted. */
  balance(currency?: string): AccountBalance | undefined;
  cash(currency?: string): Money;
  buyPower(currency?: string): Money;
}

/** The logger strategies get: pino-compatible (an object, then a message), tagged with the strategy name. */
export interface StrategyLog {
  debug(objectOrMessage: unknown, message?: string): void;
  info(objectOrMessage: unknown, message?: string): void;
  warn(objectOrMessage: unknown, message?: string): void;
  error(objectOrMessage: unknown, message?: string): void;
}

export interface StrategyContext<P> {
  readonly name: string;
  readonly symbols: readonly SecuritySymbol[];
  /** The first of `symbols`: the default for candles(), quotes(), positions and the intent helpers. */
  readonly symbol: SecuritySymbol;
  readonly period: Period;
  readonly params: P;
  /**
   * True while the runtime plays history bars before live data (the strategy's `warmup`): intents made now
   * are dropped as decisions about the past, so update indicators but record no trades.
   */
  readonly warmingUp: boolean;
  /** Closed candles of a symbol (default: `symbol`) and period (default: `period`), in time order. */
  candles(symbol?: SecuritySymbol | string, period?: Period): Observable<Candle>;
  quotes(symbol?: SecuritySymbol | string): Observable<Quote>;
  /** Changes of this strategy's own orders. */
  readonly orderUpdates: Observable<StrategyOrderUpdate>;
  /** Denials of this strategy's intents (risk checks, or orders the venue refused). */
  readonly denials: Observable<IntentDenial>;
  readonly positions: PositionsView;
  readonly account: AccountView;
  readonly clock: Clock;
  /** An RxJS scheduler on `clock`: pass it to interval/timer/delay so they follow virtual time in backtests. */
  readonly scheduler: SchedulerLike;
  readonly log: StrategyLog;
  buy(quantity: DecimalInput, options?: IntentOptions): OrderIntent;
  sell(quantity: DecimalInput, options?: IntentOptions): OrderIntent;
  /** Bring the position to zero (resolved against the position when the intent is executed). */
  close(options?: Omit<IntentOptions, 'triggerPrice' | 'exits'>): OrderIntent;
  /** Bring the position to `quantity` (negative = short). */
  target(quantity: DecimalInput, options?: IntentOptions): OrderIntent;
  /** Cancel this strategy's open orders in `symbol` (all symbols when omitted). */
  cancel(symbol?: SecuritySymbol | string, reason?: string): OrderIntent;
  /** The last price of `symbol` (its last candle's close or quote), undefined before the first. */
  lastPrice(symbol?: SecuritySymbol | string): Price | undefined;
  /** The board lot of `symbol`: orders come in whole lots of it (100 for most HK stocks, 1 for US shares). */
  lotSize(symbol?: SecuritySymbol | string): number;
  /** Cash plus every position in `currency` at its last price (default: the currency of `symbol`'s market). */
  equity(currency?: string): Money;
  /**
   * Bring the position to `fraction` of equity at the last price (0.1 = 10 %, negative = short, 0 = flat),
   * rounded toward zero to whole units: a target intent.
   */
  targetPercent(fraction: number, options?: IntentOptions): OrderIntent;
  /** Buy as many whole units as `amount` (in the symbol's currency) pays for at the last price. */
  buyValue(amount: DecimalInput, options?: IntentOptions): OrderIntent;
  /** Sell as many whole units as make `amount` at the last price. */
  sellValue(amount: DecimalInput, options?: IntentOptions): OrderIntent;
}
