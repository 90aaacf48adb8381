// The simulated broker's in-process core: accounts, the one matching engine, fees and fault injection,
// driven by bars (backtest) or ticks (paper server). Synchronous and I/O-free; order changes go out to
// listeners as they happen. Rejections are data: an order in RejectedStatus whose message says why.
import type { AccountBalance, BuyLimit, MarginRatio } from '../../domain/account.js';
import type { Clock } from '../../domain/clock.js';
import type { Fill } from '../../domain/fill.js';
import type { Money } from '../../domain/money.js';
import { FixedPointError } from '../../domain/fixed-raw.js';
import type { OrderReplacement, OrderRequest } from '../../domain/order.js';
import { nextStatus } from '../../domain/order-state-machine.js';
import { isTerminal } from '../../domain/order-status.js';
import type { OrderType, Side } from '../../domain/order-types.js';
import type { BrokerPosition } from '../../domain/position.js';
import { periodMinutes, type Period } from '../../domain/period.js';
import type { Price } from '../../domain/price.js';
import { Quantity } from '../../domain/quantity.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import { startOfLocalDay } from '../../domain/time-zone.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { Accounts, type Reservation } from './accounts.js';
import { Book, type EquityLedger, type SymbolSlot } from './book.js';
import type { CashFlow } from './cash-flows.js';
import { Engine } from './engine.js';
import { VenueError } from './errors.js';
import { FaultInjector } from './faults.js';
import { feeModelFor } from './fee-schedules.js';
import type { FeeModel } from './fees.js';
import { nextDate } from './market-days.js';
import { Matcher, type Bar } from './matching.js';
import { CarryBarInput, markBar, SlotBarInput, type BarInput, type TickOfBar } from './bar-input.js';
import { fundsCheck, prepareOrder } from './order-funds.js';
import { mergedCashFlows, positionsOf, takesOrder, type VenueOrderFilter } from './account-queries.js';
import {
  newOrderRecord,
  orderView,
  reportView,
  updateView,
  type FillReport,
  type OrderRecord,
  type OrderReportListener,
  type OrderUpdateListener,
  type VenueOrder,
} from './orders.js';
import { OrderRegister, orderIdOf } from './order-register.js';
import { restoreInto, snapshotOf, type VenueState } from './persistence.js';
import { parseVenueSettings, type VenueSettings, type VenueSettingsInput } from './settings.js';
import { fillToJson, orderToJson, parseSnapshot, type VenueSnapshot } from './snapshot.js';
import { marketProblem, replacementProblem, requestProblem } from './validation.js';
import { instrumentOf, type Instrument } from '../../domain/instrument.js';
import { instrumentProblem } from './instrument-rules.js';
import type { CarryNotice } from './carry-notice.js';
import type { CorporateAction } from './corporate-actions.js';
import { VenueCarry } from './venue-carry.js';

export interface VenueOptions {
  readonly clock: Clock;
  /** Validated strictly; see VenueSettings for the defaults. */
  readonly settings?: VenueSettingsInput;
  /** A fee model of your own; takes precedence over `settings.fees`. */
  readonly feeModel?: FeeModel;
  /**
   * Keep finished orders (filled, cancelled, rejected, expired) for queries; default true. A backtest, which
   * never asks about them, keeps only open orders: tens of thousands of finished records held to the end
   * of a run make every young-generation collection copy them.
   */
  readonly keepFinishedOrders?: boolean;
  /**
   * Keep each order's history (a line per change) for its views; default true. A backtest, which never asks
   * for them, keeps none: its orders' views list no history.
   */
  readonly keepHistory?: boolean;
  /**
   * Dividends and splits of the data (unadjusted prices), applied before each ex-date's first bar or tick
   * of the symbol; none by default.
   */
  readonly actions?: readonly CorporateAction[];
  /**
   * Keep the carry rows (dividends, splits, borrow fees) for cashFlows(); default true. A backtest, which
   * never asks, keeps none: a short held for years books a borrow-fee row every market day.
   */
  readonly keepCarryFlows?: boolean;
  /** Told of every dividend, split and borrow fee booked on a position (a backtest attributes them to its trades). */
  readonly onCarry?: (notice: CarryNotice) => void;
}

export interface BuyLimitRequest {
  readonly symbol: SecuritySymbol;
  readonly orderType: OrderType;
  readonly side: Side;
  readonly price?: Price;
}

export class Venue {
  readonly settings: VenueSettings;
  readonly faults: FaultInjector;
  readonly feeModel: FeeModel;
  private readonly clock: Clock;
  private readonly book: Book;
  private readonly accounts: Accounts;
  private readonly matcher: Matcher;
  private readonly engine: Engine;
  private readonly records = new OrderRegister();
  private readonly fills: Fill[] = [];
  private readonly listeners = new Set<OrderUpdateListener>();
  private readonly reportListeners = new Set<OrderReportListener>();
  private readonly baseCurrency: string;
  private nextOrderNumber = 1;
  private readonly unnamedStocks: boolean;
  private readonly instruments = new Map<SecuritySymbol, Instrument>();
  private readonly carry: VenueCarry;
  private readonly keepFinishedOrders: boolean;
  /** Reused for ticks, so a tick costs no allocation. */
  private readonly tickBar = { symbol: '' as SecuritySymbol, time: 0, open: 0, high: 0, low: 0, close: 0, volume: 0, straight: true };

  constructor(options: VenueOptions) {
    this.settings = parseVenueSettings(options.settings);
    this.clock = options.clock;
    this.feeModel = options.feeModel ?? feeModelFor(this.settings.fees);
    this.faults = new FaultInjector(this.settings.faults, this.settings.seed);
    this.book = new Book(this.settings.cash);
    this.baseCurrency = Object.keys(this.settings.cash)[0] ?? 'HKD';
    this.unnamedStocks = Object.keys(this.settings.stockNames).length === 0 && Object.keys(this.settings.instruments).length === 0;
    this.keepFinishedOrders = options.keepFinishedOrders ?? true;
    this.accounts = new Accounts(this.settings, this.feeModel);
    this.matcher = new Matcher(this.settings.slippageBps, this.settings.intrabarPath, this.settings.fillModel);
    this.engine = new Engine(this.matcher, this.accounts, this.feeModel, this.faults, this.settings.volumeParticipation, {
      emit: (record, fill) => this.emit(record, fill),
      executions: this.fills,
      keepHistory: options.keepHistory ?? true,
      lotSize: (symbol) => this.instrument(symbol).lotSize,
    });
    this.carry = new VenueCarry({
      book: this.book,
      accounts: this.accounts,
      engine: this.engine,
      clock: this.clock,
      borrowFeeRate: this.settings.borrowFeeRate,
      actions: options.actions ?? [],
      keepFlows: options.keepCarryFlows ?? true,
      onCarry: options.onCarry,
      fillCount: () => this.fills.length,
    });
  }

  /** Calls `listener` with every order change, synchronously; returns the unsubscribe function. */
  onOrderUpdate(listener: OrderUpdateListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /**
   * onOrderUpdate with each change as an OrderReport (what the runtime reads of it): a change no update
   * listener takes makes no full update.
   */
  onOrderReport(listener: OrderReportListener): () => void {
    this.reportListeners.add(listener);
    return () => void this.reportListeners.delete(listener);
  }

  // ---- market data -------------------------------------------------------------------------------

  /**
   * A closed bar of `candle.symbol`: resting orders of that symbol are matched against it first, then
   * the mark moves to its close. Without resting orders this is a few float writes and no allocation.
   */
  onBar(candle: Bar & { readonly symbol: SecuritySymbol }): void {
    const slot = this.book.slots.get(candle.symbol) ?? this.book.slot(candle.symbol);
    this.carry.of(slot)?.advance(candle.time);
    markBar(this.engine, slot, candle, false);
  }

  /**
   * `onBar` for the bars of one symbol, with its book slot found once instead of per bar (a backtest walks
   * each series with one of these). `period` of the bars, when intraday: a bar outside the regular sessions
   * (pre- and post-market data) fills only orders allowed outside them. Bars of a day or more (or of an
   * unknown period) are inside.
   */
  barInput(symbol: SecuritySymbol, actions?: readonly CorporateAction[], period?: Period): BarInput {
    const minutes = period === undefined ? undefined : periodMinutes(period);
    const spanMs = minutes === undefined ? Number.NaN : minutes * 60_000;
    const slot = this.book.slot(symbol);
    const carry = actions === undefined ? this.carry.of(slot) : this.carry.withActions(slot, actions);
    return carry === undefined ? new SlotBarInput(this.engine, slot, spanMs) : new CarryBarInput(this.engine, slot, carry, spanMs);
  }

  /**
   * A resumed account (restored from a snapshot taken at market time `time`) was carried through that
   * market day already: actions due by then are not applied again, and borrow fees count from that day.
   */
  resumeCarry(time: number): void {
    this.carry.resume(time);
  }

  /**
   * A trade print: the same engine, with the tick as a bar whose open, high, low and close are `price`. Fills
   * on it are capped at its volume × participation, or, for a tick of a replayed bar (`of`), at the bar's
   * volume × participation less what earlier ticks of the bar filled.
   */
  onTick(symbol: SecuritySymbol, price: number, volume: number, time: number, of?: TickOfBar): void {
    const slot = this.book.slots.get(symbol) ?? this.book.slot(symbol);
    // A later tick of the same bar moves on from the tick before: orders see the path between them.
    const from = of !== undefined && slot.barStart === of.start && Number.isFinite(slot.mark) ? slot.mark : price;
    const bar = this.tickBar;
    bar.symbol = symbol;
    bar.time = time;
    bar.open = from;
    bar.close = price;
    bar.high = Math.max(from, price);
    bar.low = Math.min(from, price);
    bar.volume = volume;
    this.carry.of(slot)?.advance(time);
    markBar(this.engine, slot, bar, of?.lastOfDay === true, of);
  }

  // ---- orders --------------------------------------------------------------------------------------

  submit(request: OrderRequest): VenueOrder {
    return this.view(this.placeRecord(request));
  }

  /**
   * `submit` for callers that only need the outcome: the order id, and the status and message that say
   * whether it was accepted (no view of the whole order is built).
   */
  place(request: OrderRequest): Pick<VenueOrder, 'orderId' | 'status' | 'message'> {
    return this.placeRecord(request);
  }

  private placeRecord(request: OrderRequest): OrderRecord {
    const now = this.clock.now();
    const slot = this.book.slots.get(request.symbol);
    const number = this.nextOrderNumber++;
    const record = newOrderRecord(orderIdOf(number), request, now);
    this.records.addNumbered(number, record);
    const problem =
      requestProblem(request) ??
      instrumentProblem(request, this.instrument(request.symbol)) ??
      marketProblem(request, slot, now, this.settings.sessionCheck) ??
      (this.faults.rejectOrder() ? 'rejected by the venue (injected fault)' : undefined);
    const funds = problem ?? this.checkedFunds(slot!, record);
    if (typeof funds === 'string') {
      this.engine.move(record, 'reject');
      this.engine.changed(record, now, funds);
      return record;
    }
    this.accept(slot!, record, funds, now);
    return record;
  }

  /**
   * fundsCheck, with an order whose figures cannot be held exactly (its fees would need more than
   * MAX_PRECISION places) refused by the reason: the order is rejected, not left half placed.
   */
  private checkedFunds(slot: SymbolSlot, record: OrderRecord): Reservation | string {
    try {
      return fundsCheck(this.accounts, this.settings.shortSelling, slot, record);
    } catch (error) {
      if (error instanceof FixedPointError) return error.message;
      throw error;
    }
  }

  cancel(orderId: string): VenueOrder {
    const record = this.openRecord(orderId);
    this.engine.finish(this.book.slot(record.symbol), record, 'cancel', this.clock.now(), 'cancelled');
    return this.view(record);
  }

  /** Replaces quantity (the new total, above what has executed), prices and remark of an open order. */
  replace(orderId: string, replacement: OrderReplacement): VenueOrder {
    const record = this.openRecord(orderId);
    if (nextStatus(record.status, 'replace', record.executedQuantity.isPositive()) === undefined) {
      throw new VenueError('ORDER_NOT_REPLACEABLE', `order ${orderId} cannot be replaced in status ${record.status}`);
    }
    const slot = this.book.slot(record.symbol);
    const now = this.clock.now();
    const problem =
      replacementProblem(record, replacement) ??
      instrumentProblem(
        { ...record, quantity: replacement.quantity, price: replacement.price, triggerPrice: replacement.triggerPrice },
        this.instrument(record.symbol),
      );
    if (problem !== undefined) throw new VenueError('INVALID_REPLACEMENT', `order ${orderId}: ${problem}`);

    const saved = { ...record };
    this.accounts.reserve(slot, record);
    record.quantity = replacement.quantity;
    record.price = replacement.price ?? record.price;
    record.triggerPrice = replacement.triggerPrice ?? record.triggerPrice;
    record.limitOffset = replacement.limitOffset ?? record.limitOffset;
    record.trailingAmount = replacement.trailingAmount ?? record.trailingAmount;
    record.trailingPercent = replacement.trailingPercent ?? record.trailingPercent;
    prepareOrder(this.accounts, slot, record, now);
    const funds = fundsCheck(this.accounts, this.settings.shortSelling, slot, record);
    if (typeof funds === 'string') {
      const zero = saved.cashReserve.minus(saved.cashReserve);
      Object.assign(record, saved, { cashReserve: zero, marginReserve: zero, positionReserve: Quantity.ZERO, feeReserve: zero });
      this.accounts.reserve(slot, record, this.accounts.reservationOf(slot, record));
      const code = funds.startsWith('insufficient position') ? 'INSUFFICIENT_POSITION' : 'INSUFFICIENT_BUYING_POWER';
      throw new VenueError(code, `order ${orderId} not replaced: ${funds}`);
    }
    this.accounts.reserve(slot, record, funds);
    record.remark = replacement.remark ?? record.remark;
    this.engine.move(record, 'replace');
    this.engine.changed(record, now, 'replaced');
    return this.view(record);
  }

  /** Whether the venue books a corporate action of `symbol` with an ex-date after `after` and up to `through` (YYYY-MM-DD). */
  actsBetween(symbol: SecuritySymbol, after: string | undefined, through: string): boolean {
    return this.carry.actsBetween(symbol, after, through);
  }

  /** The symbol's lot size, tick rule, currency and name: from the settings, else its market's defaults. */
  instrument(symbol: SecuritySymbol): Instrument {
    let instrument = this.instruments.get(symbol);
    if (instrument === undefined) {
      const known = this.settings.instruments[symbol] ?? {};
      const name = known.name ?? this.settings.stockNames[symbol];
      instrument = instrumentOf(symbol, { ...known, ...(name === undefined ? {} : { name }) });
      this.instruments.set(symbol, instrument);
    }
    return instrument;
  }

  // ---- queries -------------------------------------------------------------------------------------

  order(orderId: string): VenueOrder {
    return this.view(this.record(orderId));
  }

  orders(filter: VenueOrderFilter = {}): VenueOrder[] {
    const now = this.clock.now();
    const result: VenueOrder[] = [];
    for (const record of this.records.values()) if (takesOrder(filter, record, now, this.book)) result.push(this.view(record));
    return result;
  }

  /** The `index`th fill of the account (0: the first), without copying the list as executions() does. */
  execution(index: number): Fill | undefined {
    return this.fills[index];
  }

  /** Fills so far, oldest first (optionally of one order or symbol). */
  executions(filter: { readonly orderId?: string; readonly symbol?: SecuritySymbol } = {}): Fill[] {
    return this.fills.filter(
      (fill) =>
        (filter.orderId === undefined || fill.orderId === filter.orderId) && (filter.symbol === undefined || fill.symbol === filter.symbol),
    );
  }

  /** Cash and share movements of the fills and the carry so far, oldest first (see cash-flows.ts). */
  cashFlows(): CashFlow[] {
    return mergedCashFlows(this.fills, this.carry.flows);
  }

  /** The cash of one currency (what accountBalance gives as totalCash, without marking the positions). */
  cash(currency: string): Money {
    return this.book.ledger(currency).cash;
  }

  /** Balances per currency, marked at the last prices (one currency when given). */
  accountBalance(currency?: string): AccountBalance[] {
    if (currency !== undefined) return [this.accounts.balance(this.book.ledger(currency))];
    // From the ledger list, without an iterator over the map: every opening order of a backtest asks.
    const ledgers = this.book.ledgerList;
    const balances = new Array<AccountBalance>(ledgers.length);
    for (let index = 0; index < ledgers.length; index += 1) balances[index] = this.accounts.balance(ledgers[index]!);
    return balances;
  }

  positions(symbols?: readonly SecuritySymbol[]): BrokerPosition[] {
    return positionsOf(this.book, symbols, this.clock.now(), (symbol) => this.stockName(symbol));
  }

  buyLimit(request: BuyLimitRequest): BuyLimit {
    return this.accounts.buyLimit(this.pricedSlot(request.symbol), request.side, request.orderType, request.price);
  }

  marginRatio(symbol: SecuritySymbol): MarginRatio {
    return this.accounts.marginRatio(symbol);
  }

  /** Cash plus positions at their last prices, in floats (cheap enough to call on every bar). */
  equityEstimate(currency: string = this.baseCurrency): number {
    const ledger = this.book.ledgers.get(currency);
    return ledger === undefined ? 0 : ledger.cashFloat + ledger.holdingsFloat;
  }

  /** The cash ledgers (one per currency; the list grows as currencies appear), for equityOf on every bar time. */
  get ledgers(): readonly EquityLedger[] {
    return this.book.ledgerList;
  }

  /** Signed position quantity as a float (0 when flat or unknown). */
  positionQuantity(symbol: SecuritySymbol): number {
    return this.book.slots.get(symbol)?.quantity ?? 0;
  }

  /** Last price seen for the symbol, or undefined before its first bar or tick. */
  markPrice(symbol: SecuritySymbol): number | undefined {
    const mark = this.book.slots.get(symbol)?.mark;
    return mark === undefined || Number.isNaN(mark) ? undefined : mark;
  }

  // ---- state ---------------------------------------------------------------------------------------

  snapshot(): VenueSnapshot {
    return snapshotOf(this.state());
  }

  /** The snapshot without orders and executions, for a store that saves those one by one (orderSnapshot, executions). */
  bookSnapshot(): VenueSnapshot {
    return snapshotOf({ ...this.state(), records: new OrderRegister(), fills: [] });
  }

  /** One order in its snapshot form. */
  orderSnapshot(orderId: string): VenueSnapshot['orders'][number] {
    return orderToJson(this.record(orderId));
  }

  /** Executions from position `from` on (oldest first) in their snapshot form. */
  executionSnapshots(from = 0): VenueSnapshot['executions'] {
    return this.fills.slice(from).map(fillToJson);
  }

  /** Loads a snapshot into this venue, which must be fresh (settings stay this venue's own). */
  restore(input: unknown): void {
    if (this.nextOrderNumber > 1 || this.book.slots.size > 0) throw new Error('restore needs a venue that has seen no bars and no orders');
    this.nextOrderNumber = restoreInto(this.state(), parseSnapshot(input));
  }

  // ---- internals -----------------------------------------------------------------------------------

  private accept(slot: SymbolSlot, record: OrderRecord, reservation: Reservation, now: number): void {
    this.engine.move(record, 'accept');
    this.accounts.reserve(slot, record, reservation);
    if (record.timeInForce === 'GTD') record.expiresAt = startOfLocalDay(nextDate(record.expireDate!), timeZoneOf(record.market));
    else if (record.timeInForce === 'Day' && !slot.dayOver && slot.days.inSession(now)) record.expiresAt = slot.days.dayEnd(now);
    slot.resting.push(record);
    this.engine.changed(record, now, 'accepted');
    if (this.settings.fillModel === 'close' && record.orderType === 'MO') {
      this.engine.fillUpTo(slot, record, this.matcher.slipped(slot.mark, record.side === 'Buy'), now);
    }
  }

  private state(): VenueState {
    return {
      book: this.book,
      accounts: this.accounts,
      records: this.records,
      fills: this.fills,
      carryFlows: this.carry.flows,
      faults: this.faults,
      nextOrderNumber: this.nextOrderNumber,
    };
  }

  private record(orderId: string): OrderRecord {
    const record = this.records.get(orderId);
    if (record === undefined) throw new VenueError('ORDER_NOT_FOUND', `order ${orderId} not found`);
    return record;
  }

  private openRecord(orderId: string): OrderRecord {
    const record = this.record(orderId);
    if (isTerminal(record.status)) throw new VenueError('ORDER_CLOSED', `order ${orderId} is already ${record.status}`);
    return record;
  }

  private pricedSlot(symbol: SecuritySymbol): SymbolSlot {
    const slot = this.book.slots.get(symbol);
    if (slot === undefined || Number.isNaN(slot.mark))
      throw new VenueError('UNKNOWN_SYMBOL', `unknown symbol: no market data for ${symbol} yet`);
    return slot;
  }

  private stockName(symbol: SecuritySymbol): string {
    // Every order change asks; most runs name no stocks, and a lookup keyed by many symbols is slow.
    if (this.unnamedStocks) return '';
    return this.instrument(symbol).name;
  }

  private view(record: OrderRecord): VenueOrder {
    return orderView(record, this.stockName(record.symbol));
  }

  private emit(record: OrderRecord, fill: FillReport | undefined): void {
    if (!this.keepFinishedOrders && isTerminal(record.status)) this.records.delete(record.orderId);
    let failure: unknown;
    if (this.reportListeners.size > 0) {
      const report = reportView(record, fill);
      for (const listener of this.reportListeners) {
        try {
          listener(report);
        } catch (error) {
          failure ??= error;
        }
      }
    }
    if (this.listeners.size > 0) {
      const update = updateView(record, this.stockName(record.symbol), this.settings.accountNo, fill);
      for (const listener of this.listeners) {
        try {
          listener(update);
        } catch (error) {
          failure ??= error;
        }
      }
    }
    if (failure !== undefined) throw failure;
  }
}
