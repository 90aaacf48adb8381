// Reconciliation with the broker: on start (journal's open orders and positions against the broker's, before
// any strategy sees data), periodically (pushes can be late or lost) and at a market day's start (corporate
// actions are booked without a push). Broker positions are compared only from a stable snapshot: orders
// queried before and after the positions with no execution in between (or no order of ours open at all),
// and no fill applied locally meanwhile — otherwise a late push could be counted twice. Orders the broker
// never confirmed are looked for in its history too: their day may have passed while the runtime was down.
import { isOpen, type AccountBalance, type BrokerPosition, type Clock, type Order, type SecuritySymbol } from '../domain/index.js';
import type { Logger } from '../log/logger.js';
import type { ChangeSource } from '../store/journal.js';
import type { Broker } from './broker.js';
import { text } from './events.js';
import type { Executor } from './executor.js';
import { recordFromJournal, type OrderRecord } from './order-tracker.js';
import { readWithRetry } from './read-retry.js';
import { withTimeout } from './with-timeout.js';

interface BrokerSnapshot {
  readonly orders: readonly Order[];
  readonly positions: readonly BrokerPosition[];
  readonly balances: readonly AccountBalance[];
  readonly stable: boolean;
}

const SNAPSHOT_ATTEMPTS = 3;

export class Reconciler {
  /** The periodic or day-start pass under way. */
  private running: Promise<void> | undefined;

  constructor(
    private readonly executor: Executor,
    private readonly broker: Broker,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Loads the journal's open orders and positions, settles the orders against the broker (booking the fills
   * made while the runtime was down against the journal's positions), reports where the broker's positions
   * differ from the result, and takes the broker's positions; the journal's rows follow.
   */
  async start(): Promise<void> {
    const { tracker, flow, book, journal } = this.executor;
    const journalOrders = journal.openOrders();
    for (const row of journalOrders) tracker.add(recordFromJournal(row));
    const journalPositions = journal.positions();
    book.seed(journalPositions);
    // The symbols the journal speaks for: other broker positions simply predate it.
    const known = new Set<SecuritySymbol>();
    for (const position of journalPositions) known.add(position.symbol);
    for (const row of journalOrders) known.add(row.symbol);
    const snapshot = await this.snapshot();
    for (const order of snapshot.orders) flow.handleReport(order, 'restart');
    await this.refreshMissing(snapshot.orders, 'restart');
    await this.settleUnconfirmed(snapshot.orders, 'restart');
    this.conclude(snapshot, { adopt: true, expected: 'the journal expects', reported: known });
    if (!snapshot.stable)
      this.logger.warn('orders kept executing during the start-up reconciliation; positions taken as the broker reported them');
  }

  /** One periodic pass; skipped while another is running. */
  periodic(): Promise<void> {
    return this.running === undefined ? this.exclusive(() => this.pass()) : Promise.resolve();
  }

  /**
   * The pass at a market day's start, when corporate actions booked overnight have moved positions and cash
   * without a push. Its reads come after this call (after the pass under way, whose reads may predate them).
   * It runs between intents (Executor.queueTask), so no order of ours is placed meanwhile: with none open
   * either, none of ours can execute between its reads, and the positions and balances are all it reads (two
   * calls); otherwise it is a full pass, whose orders read before and after the positions tell.
   */
  async dayStart(): Promise<void> {
    while (this.running !== undefined) await this.running.catch(() => undefined);
    return this.exclusive(() => (this.executor.tracker.open().length === 0 ? this.holdings() : this.pass()));
  }

  private exclusive(pass: () => Promise<void>): Promise<void> {
    const running = pass().finally(() => {
      this.running = undefined;
    });
    this.running = running;
    return running;
  }

  private async pass(): Promise<void> {
    const { flow } = this.executor;
    const snapshot = await this.snapshot();
    for (const order of snapshot.orders) flow.handleReport(order, 'query');
    // Fills of our orders missing from today's list (a push lost on an earlier day) go in before the
    // comparison; whether the positions already held them is unknown, so that pass adopts nothing.
    const missed = (await this.refreshMissing(snapshot.orders, 'query')) + (await this.settleUnconfirmed(snapshot.orders, 'query'));
    this.conclude(snapshot, { adopt: snapshot.stable && missed === 0, expected: 'the book has' });
  }

  /** Positions and balances alone, with no order of ours open. */
  private async holdings(): Promise<void> {
    const fills = this.executor.flow.fillCount;
    const positions = await this.read(() => this.broker.positions(), 'positions');
    const balances = await this.read(() => this.broker.accountBalance(), 'account balance');
    const stable = this.executor.flow.fillCount === fills;
    this.conclude({ orders: [], positions, balances, stable }, { adopt: stable, expected: 'the book has' });
  }

  /**
   * Takes the broker's balances, and its positions when `adopt`, reporting where they differ from what is
   * `expected` (for the `reported` symbols only, when given).
   */
  private conclude(
    snapshot: BrokerSnapshot,
    options: {
      readonly adopt: boolean;
      readonly expected: 'the journal expects' | 'the book has';
      readonly reported?: ReadonlySet<SecuritySymbol>;
    },
  ): void {
    const { flow, book, journal } = this.executor;
    if (options.adopt) {
      for (const difference of book.compare(snapshot.positions)) {
        if (options.reported !== undefined && !options.reported.has(difference.symbol)) continue;
        flow.mismatch(
          'position',
          `${difference.symbol}: the broker reports ${text(difference.reported)}, ${options.expected} ${text(difference.expected)}; taking the broker's`,
          { symbol: difference.symbol, expected: text(difference.expected), reported: text(difference.reported) },
        );
      }
      book.adopt(snapshot.positions);
    }
    const now = this.clock.now();
    for (const position of book.all()) journal.savePosition(position, now);
    this.executor.takeBalances(snapshot.balances, undefined);
    this.announce(snapshot);
  }

  private read<T>(read: () => Promise<T>, what: string): Promise<T> {
    return readWithRetry(read, what, { clock: this.clock, logger: this.logger, timeoutMs: this.timeoutMs });
  }

  private async snapshot(): Promise<BrokerSnapshot> {
    for (let attempt = 1; ; attempt += 1) {
      const fills = this.executor.flow.fillCount;
      const before = await this.read(() => this.broker.todayOrders(), "today's orders");
      const positions = await this.read(() => this.broker.positions(), 'positions');
      const orders = await this.read(() => this.broker.todayOrders(), "today's orders");
      const balances = await this.read(() => this.broker.accountBalance(), 'account balance');
      const stable = sameExecutions(before, orders) && this.executor.flow.fillCount === fills;
      if (stable || attempt === SNAPSHOT_ATTEMPTS) return { orders, positions, balances, stable };
    }
  }

  // Our open orders missing from today's list (e.g. a GTC order from an earlier day): ask for each one.
  // Returns how many fills that found.
  private async refreshMissing(listed: readonly Order[], source: ChangeSource): Promise<number> {
    const listedIds = new Set(listed.map((order) => order.orderId));
    let fills = 0;
    for (const record of this.executor.tracker.open()) {
      if (record.orderId === undefined || listedIds.has(record.orderId)) continue;
      try {
        const order = await withTimeout(this.broker.orderDetail(record.orderId), this.clock, this.timeoutMs, `order ${record.orderId}`);
        if (this.executor.flow.handleReport(order, source) !== undefined) fills += 1;
      } catch (error) {
        this.logger.warn({ orderId: record.orderId, error: describe(error) }, 'cannot refresh an open order');
      }
    }
    return fills;
  }

  /**
   * Orders we recorded but the broker never confirmed (no order id) that today's list does not hold: looked
   * for by client order id in the broker's history (their day may have passed: a restart on the next market
   * day), and when not there either, settled as never arrived. When the history cannot be read they stay
   * in doubt until the next pass. Returns how many fills the search found.
   */
  private async settleUnconfirmed(listed: readonly Order[], source: ChangeSource): Promise<number> {
    const { tracker, inFlight, flow } = this.executor;
    const remarks = new Set(listed.map((order) => order.remark));
    const unconfirmed = (record: OrderRecord): boolean =>
      record.orderId === undefined && !inFlight.has(record.clientOrderId) && !remarks.has(record.clientOrderId);
    const doubtful = tracker.open().filter(unconfirmed);
    if (doubtful.length === 0) return 0;
    let found: ReadonlyMap<string, Order>;
    try {
      found = await this.searchHistory(doubtful);
    } catch (error) {
      this.logger.warn(
        { clientOrderIds: doubtful.map((record) => record.clientOrderId), error: describe(error) },
        "cannot search the broker's order history: orders it never confirmed stay in doubt",
      );
      return 0;
    }
    let fills = 0;
    for (const record of doubtful) {
      // A push or a lookup may have settled it while the history was read.
      if (!unconfirmed(record) || !isOpen(record.status)) continue;
      const order = found.get(record.clientOrderId);
      if (order !== undefined) {
        if (flow.handleReport(order, source) !== undefined) fills += 1;
        continue;
      }
      const reason = 'not found at the broker: the submit never arrived';
      flow.localTransition(record, 'reject', source, reason);
      flow.mismatch(
        'missing-order',
        `order ${record.clientOrderId} (${record.side} ${text(record.quantity)} ${record.symbol}) is ${reason}`,
        {
          clientOrderId: record.clientOrderId,
          strategy: record.strategy,
          symbol: record.symbol,
        },
      );
    }
    return fills;
  }

  // The broker's orders in the doubtful orders' symbols over its default window (the service's: the last 90
  // days), by client order id. No start time of ours: the runtime's clock need not be the venue's (a paper
  // replay, or a simulator reached as a live account, keeps market time).
  private async searchHistory(doubtful: readonly OrderRecord[]): Promise<ReadonlyMap<string, Order>> {
    const wanted = new Set(doubtful.map((record) => record.clientOrderId));
    const found = new Map<string, Order>();
    for (const symbol of new Set(doubtful.map((record) => record.symbol))) {
      const orders = await this.read(() => this.broker.historyOrders({ symbol }), `order history of ${symbol}`);
      for (const order of orders) if (wanted.has(order.remark)) found.set(order.remark, order);
    }
    return found;
  }

  private announce(snapshot: BrokerSnapshot): void {
    this.executor.events.next({
      type: 'reconciled',
      time: this.clock.now(),
      openOrders: this.executor.tracker.open().length,
      positions: snapshot.positions.length,
      stable: snapshot.stable,
    });
  }
}

function sameExecutions(before: readonly Order[], after: readonly Order[]): boolean {
  if (before.length !== after.length) return false;
  const executed = new Map(before.map((order) => [order.orderId, order.executedQuantity]));
  return after.every((order) => executed.get(order.orderId)?.eq(order.executedQuantity) === true);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
