// The executor: takes strategies' intents one at a time, resolves them against the position book, checks
// them with the risk engine on fresh broker figures, and places approved orders with a client order id in
// the remark. Intents are queued synchronously (so `busy` is true on return while one still waits for the
// broker) and processed in order, so each decision sees the effects of the one before (IntentQueue).
import {
  Quantity,
  currencyOf,
  marketOf,
  timeZoneOf,
  type AccountBalance,
  type Clock,
  type Fill,
  type Market,
  type OrderIntent,
  type OrderRequest,
  type SecuritySymbol,
} from '../domain/index.js';
import type { Logger } from '../log/logger.js';
import { FRESH_EQUITY_WATCH, NO_LIMITS, evaluateRisk, openingOf, observeEquity, type EquityWatch, type RiskLimits } from '../risk/index.js';
import { noJournal, type Journal } from '../store/journal.js';
import { DecisionFigures } from './decision-figures.js';
import { EventStream } from './event-stream.js';
import type { Broker } from './broker.js';
import { ClientOrderIds, DEFAULT_CLIENT_ID_PREFIX } from './client-order-id.js';
import { SmallSet } from './small-collections.js';
import { EXECUTION_DENIAL_CODES, text, type DenialInfo, type ExecutionCounts } from './events.js';
import { IntentQueue } from './intent-queue.js';
import { resolveIntent } from './intent-resolution.js';
import { OrderFlow } from './order-flow.js';
import { OrderPlacement } from './order-placement.js';
import { OrderTracker } from './order-tracker.js';
import { PositionBook } from './position-book.js';
import { PriceBoard } from './price-board.js';
import { NO_RISK_DATA, balanceIn, fetchRiskData, riskDataNow, type RiskData } from './risk-data.js';
import type { SubmitSettings } from './submission.js';
import { withTimeout } from './with-timeout.js';

export interface ExecutorOptions {
  readonly broker: Broker;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly journal?: Journal;
  readonly limits?: RiskLimits;
  readonly prices?: PriceBoard;
  /** The market whose local day the daily-loss switch counts in, and whose currency's net assets it watches. */
  readonly homeMarket?: Market;
  readonly clientIdPrefix?: string;
  /** Per broker request (submit, lookup, risk figures, cancel). Default 10 s. */
  readonly requestTimeoutMs?: number;
  readonly lookupAttempts?: number;
  readonly lookupDelayMs?: number;
  /** Whether the account may sell short, when known (see RiskSnapshot.shortSelling). */
  readonly shortSelling?: boolean;
  /**
   * Asked again for an intent when its turn comes and once its risk figures are in: what a gate that closed
   * meanwhile (a stopping job, a pause, the kill switch) holds back is denied with its code and message.
   */
  readonly heldBack?: (intent: OrderIntent) => { readonly code: string; readonly message: string } | undefined;
}

const STOPPING = 'the run is stopping: no new orders';

export class Executor {
  readonly book = new PositionBook();
  readonly tracker = new OrderTracker();
  readonly events = new EventStream();
  readonly flow: OrderFlow;
  readonly prices: PriceBoard;
  readonly journal: Journal;
  readonly counts: ExecutionCounts = { intents: 0, orders: 0, fills: 0, denials: 0 };
  /** Client order ids whose submit is still being resolved; reconciliation leaves them alone. */
  readonly inFlight = new SmallSet<string>();

  private readonly broker: Broker;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly limits: RiskLimits;
  private readonly homeMarket: Market | undefined;
  private readonly shortSelling: boolean | undefined;
  private readonly clientOrderIds: ClientOrderIds;
  private readonly submitSettings: SubmitSettings;
  private readonly queue: IntentQueue;
  private readonly heldBack: ExecutorOptions['heldBack'];
  private readonly dropped = new Set<string>();
  private closed = false;
  /** Withdraws the risk-figure reads of the current intent that still wait for their turn. */
  private figureReads: AbortController | undefined;
  private equity: EquityWatch = FRESH_EQUITY_WATCH;
  private readonly recentOrderTimes: number[] = [];
  private readonly figures = new DecisionFigures();
  private readonly placement: OrderPlacement;

  constructor(options: ExecutorOptions) {
    this.broker = options.broker;
    this.clock = options.clock;
    this.logger = options.logger;
    this.journal = options.journal ?? noJournal();
    this.limits = options.limits ?? NO_LIMITS;
    this.prices = options.prices ?? new PriceBoard();
    this.homeMarket = options.homeMarket;
    this.shortSelling = options.shortSelling;
    this.heldBack = options.heldBack;
    this.queue = new IntentQueue(
      (item) => (this.dropped.has(item.strategy) ? undefined : this.process(item.strategy, item.intent)),
      options.logger,
    );
    this.clientOrderIds = new ClientOrderIds(options.clientIdPrefix ?? DEFAULT_CLIENT_ID_PREFIX, options.clock.now());
    const timeoutMs = options.requestTimeoutMs ?? 10_000;
    this.submitSettings = {
      timeoutMs,
      submitTimeoutMs: timeoutMs + (options.broker.pacingMs ?? 0),
      lookupAttempts: options.lookupAttempts ?? 3,
      lookupDelayMs: options.lookupDelayMs ?? 1_000,
    };
    // A report of an order we no longer track is one of ours that finished (this run's stamp, or journaled).
    const isOurs = (remark: string): boolean =>
      remark !== '' && (this.clientOrderIds.isFromThisRun(remark) || this.journal.hasOrder(remark));
    this.flow = new OrderFlow(this.tracker, this.book, this.journal, this.clock, this.events, isOurs, this.counts, (fill) =>
      this.cashAfterFill(fill),
    );
    this.placement = new OrderPlacement({
      broker: this.broker,
      clock: this.clock,
      tracker: this.tracker,
      journal: this.journal,
      events: this.events,
      flow: this.flow,
      counts: this.counts,
      inFlight: this.inFlight,
      submitSettings: this.submitSettings,
      limits: this.limits,
      recentOrderTimes: this.recentOrderTimes,
      deny: (strategy, intentId, intent, denial) => this.deny(strategy, intentId, intent, denial),
    });
    // Splits, dividends and borrow fees move the broker's books between fills: the book follows at once.
    this.broker.immediate?.carried?.subscribe((booking) => {
      if (booking.position !== undefined) this.book.takePosition(booking.symbol, booking.position.quantity, booking.position.costPrice);
      this.book.takeCash(booking.cash);
    });
  }

  /** True while intents are queued or being processed (risk figures, submission, lookups, cancels). */
  get busy(): boolean {
    return this.queue.busy;
  }

  /** Resolves when nothing is in flight. */
  settled(): Promise<void> {
    return this.queue.settled();
  }

  /** Queues an intent; synchronous, so `busy` is true on return unless it has already been dealt with. */
  enqueue(strategy: string, intent: OrderIntent): void {
    if (this.closed || this.dropped.has(strategy)) return;
    this.queue.push({ strategy, intent, onStop: false });
  }

  /**
   * Records an intent a gate held back before the queue (a pause, the kill switch, an outage) as an intent
   * and its denial, like any other denied intent: in the journal, the events and the counts.
   */
  holdBack(strategy: string, intent: OrderIntent, denial: DenialInfo): void {
    if (this.closed || this.dropped.has(strategy)) return;
    const time = this.clock.now();
    const intentId = this.journal.recordIntent(strategy, time, intent);
    this.counts.intents += 1;
    if (this.events.wants('intent')) this.events.next({ type: 'intent', time, strategy, intentId, intent });
    this.deny(strategy, intentId, intent, denial);
  }

  /** Queues an intent of the stop itself (closing positions): taken even after close(). */
  enqueueOnStop(strategy: string, intent: OrderIntent): void {
    this.queue.push({ strategy, intent, onStop: true });
  }

  /**
   * Queues work that the intents queued after it wait for, counted in `busy` (a reconciliation whose
   * positions their decisions must see). Its failure is its own to report: a rejection is only logged.
   */
  queueTask(task: () => Promise<void>): void {
    if (this.closed) return;
    this.queue.push({ task });
  }

  /** Ignores the strategy's queued and future intents (it failed). */
  dropStrategy(strategy: string): void {
    this.dropped.add(strategy);
  }

  /**
   * The gate may hold intents back now (a job stopping, a pause, the kill switch): the intent waiting for its
   * risk figures gives up the reads still held by the broker's pacing and is checked again at once, not after
   * the account's other calls; queued intents are checked as their turn comes.
   */
  recheck(): void {
    const current = this.queue.current;
    if (current === undefined || current.onStop || this.heldBack?.(current.intent) === undefined) return;
    this.figureReads?.abort(new Error('withdrawn: the intent is held back'));
  }

  /**
   * Stops taking intents at once: queued ones are dropped, and the one being processed places no order (its
   * risk-figure reads still waiting for their turn are withdrawn). Requests already sent (a submit, its
   * lookups, a cancel) finish.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.figureReads?.abort(new Error(`withdrawn: ${STOPPING}`));
    const dropped = this.queue.clear();
    if (dropped > 0) this.logger.info({ intents: dropped }, 'dropped queued intents: the run is stopping');
  }

  /** Cancels open orders (of one strategy, and one symbol, when given); returns how many cancels were sent. */
  async cancelOpen(strategy?: string, symbol?: SecuritySymbol): Promise<number> {
    const records = this.tracker.open(strategy, symbol);
    let sent = 0;
    await Promise.all(
      records.map(async (record) => {
        if (record.orderId === undefined) {
          this.logger.warn({ clientOrderId: record.clientOrderId }, 'cannot cancel an order the broker has not confirmed yet');
          return;
        }
        try {
          await withTimeout(
            this.broker.cancelOrder(record.orderId),
            this.clock,
            this.submitSettings.timeoutMs,
            `cancel order ${record.orderId}`,
          );
          sent += 1;
        } catch (error) {
          this.logger.warn({ orderId: record.orderId, error: describe(error) }, 'cancel failed');
        }
      }),
    );
    return sent;
  }

  /** Signed quantity still open in working orders of a symbol. */
  pendingQuantity(symbol: SecuritySymbol): Quantity {
    return this.tracker.workingQuantity(symbol);
  }

  // process, decide and place are plain functions returning a promise only while they wait for the broker
  // (not async functions): a backtest places tens of thousands of orders, each through all three.
  private process(strategy: string, intent: OrderIntent): Promise<unknown> | undefined {
    const time = this.clock.now();
    const intentId = this.journal.recordIntent(strategy, time, intent);
    this.counts.intents += 1;
    if (this.events.wants('intent')) this.events.next({ type: 'intent', time, strategy, intentId, intent });
    if (intent.kind === 'cancel') return this.cancelOpen(strategy, intent.symbol);
    if (this.haltedNow(strategy, intentId, intent)) return undefined;
    const working = intent.kind === 'order' ? Quantity.ZERO : this.tracker.workingQuantity(intent.symbol);
    const resolution = resolveIntent(intent, this.book.quantity(intent.symbol), this.clientOrderIds.forIntent(intentId), working);
    if (resolution.kind === 'skip') {
      if (this.events.wants('intent-skipped'))
        this.events.next({ type: 'intent-skipped', time, strategy, intentId, intent, reason: resolution.reason });
      return undefined;
    }
    if (resolution.kind === 'invalid') {
      this.deny(strategy, intentId, intent, { code: EXECUTION_DENIAL_CODES.invalidIntent, message: resolution.reason, figures: {} });
      return undefined;
    }
    const request = resolution.request;
    const opening = openingOf(this.book.quantity(request.symbol), request.side, request.quantity);
    if (opening.isZero()) return this.decide(strategy, intentId, intent, request, NO_RISK_DATA);
    const immediate = this.broker.immediate;
    if (immediate !== undefined) return this.decideOnFigures(strategy, intentId, intent, request, riskDataNow(immediate, request));
    // Three reads that the broker's own pacing may hold back (see Broker.pacingMs): waited for, not denied,
    // unless the intent no longer matters meanwhile (recheck, close).
    const figuresTimeoutMs = this.submitSettings.timeoutMs + (this.broker.pacingMs ?? 0);
    const reads = new AbortController();
    this.figureReads = reads;
    return fetchRiskData(this.broker, request, this.clock, figuresTimeoutMs, reads.signal).then((data) => {
      this.figureReads = undefined;
      if (this.haltedNow(strategy, intentId, intent)) return undefined;
      return this.decideOnFigures(strategy, intentId, intent, request, data);
    });
  }

  /** Records why the intent goes no further (the run stops, or the gate holds it back); false when it may go on. */
  private haltedNow(strategy: string, intentId: number, intent: OrderIntent): boolean {
    if (this.queue.current?.onStop === true) return false;
    if (this.closed) {
      this.events.next({ type: 'intent-skipped', time: this.clock.now(), strategy, intentId, intent, reason: STOPPING });
      return true;
    }
    const held = this.heldBack?.(intent);
    if (held === undefined) return false;
    this.deny(strategy, intentId, intent, { ...held, figures: {} });
    return true;
  }

  /** Takes fresh balances into the book, then decides. */
  private decideOnFigures(
    strategy: string,
    intentId: number,
    intent: OrderIntent,
    request: OrderRequest & { readonly remark: string },
    data: RiskData,
  ): Promise<void> | undefined {
    if (data.balances !== undefined) this.takeBalances(data.balances, marketOf(request.symbol));
    return this.decide(strategy, intentId, intent, request, data);
  }

  /** Checks the request on the figures and places it when approved. */
  private decide(
    strategy: string,
    intentId: number,
    intent: OrderIntent,
    request: OrderRequest & { readonly remark: string },
    data: RiskData,
  ): Promise<void> | undefined {
    const figures = this.figures;
    figures.time = this.clock.now();
    figures.position = this.book.quantity(request.symbol);
    figures.pendingQuantity = this.pendingQuantity(request.symbol);
    figures.referencePrice = request.price ?? this.prices.price(request.symbol);
    figures.account = data.account;
    figures.buyLimit = data.buyLimit;
    figures.marginRatio = data.marginRatio;
    figures.shortSelling = this.shortSelling;
    figures.figuresError = data.error;
    figures.recentOrderTimes = this.recentOrderTimes;
    figures.equity = this.equity;
    const decision = evaluateRisk(request, figures, this.limits);
    if (decision.kind === 'denied') {
      this.deny(strategy, intentId, intent, { code: decision.code, message: decision.message, figures: decision.figures });
      return undefined;
    }
    return this.place(strategy, intentId, intent, request);
  }

  /**
   * A fill's report carries no fees, so the book's cash misses them until balances are read again. The cash
   * of a broker that answers at once (the backtest's venue) is read right away: a strategy sizing on its cash
   * or equity before its next order (targetPercent after a round trip) sees the fees paid. Others wait for
   * the next read.
   */
  private cashAfterFill(fill: Fill): void {
    const immediate = this.broker.immediate;
    if (immediate === undefined) return;
    const cash = immediate.cashAfterFill(currencyOf(marketOf(fill.symbol)));
    if (cash !== undefined) this.book.takeCash(cash);
  }

  /**
   * Takes fresh balances into the book (reporting cash the broker contradicts) and shows the kill switches
   * the net assets in the currency of the home market (else of `market`, the market being traded).
   */
  takeBalances(balances: readonly AccountBalance[], market: Market | undefined): void {
    const zoneMarket = this.homeMarket ?? market;
    const watched = this.limits.dailyLossLimit !== undefined || this.limits.maxDrawdown !== undefined;
    if (watched && zoneMarket !== undefined) {
      const balance = balanceIn(balances, currencyOf(zoneMarket)) ?? balances[0];
      if (balance !== undefined)
        this.equity = observeEquity(this.equity, balance.netAssets, this.clock.now(), timeZoneOf(zoneMarket), this.limits);
    }
    for (const difference of this.book.setBalances(balances)) {
      this.flow.mismatch(
        'cash',
        `cash in ${difference.currency} is ${text(difference.reported)} at the broker, ${text(difference.expected)} in the book`,
        {
          currency: difference.currency,
          expected: text(difference.expected),
          reported: text(difference.reported),
        },
      );
    }
  }

  private place(
    strategy: string,
    intentId: number,
    intent: OrderIntent,
    request: OrderRequest & { readonly remark: string },
  ): Promise<void> | undefined {
    if (this.closed && this.queue.current?.onStop !== true) {
      this.events.next({ type: 'intent-skipped', time: this.clock.now(), strategy, intentId, intent, reason: STOPPING });
      return undefined;
    }
    return this.placement.place(strategy, intentId, intent, request);
  }

  private deny(strategy: string, intentId: number, intent: OrderIntent, denial: DenialInfo): void {
    const time = this.clock.now();
    this.counts.denials += 1;
    this.journal.recordDenial({ intentId, strategy, time, code: denial.code, message: denial.message, figures: denial.figures });
    if (this.events.wants('denial')) this.events.next({ type: 'denial', time, strategy, intentId, intent, denial });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
