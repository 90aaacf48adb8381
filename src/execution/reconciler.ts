// Reconciliation with the broker: on start (journal's open orders and positions against the broker's, before
// any strategy sees data) and periodically (pushes can be late or lost). Broker positions are compared only
// from a stable snapshot: orders queried before and after the positions with no execution in between, and no
// fill applied locally meanwhile — otherwise a late push could be counted twice.
import {
  Quantity,
  type AccountBalance,
  type BrokerPosition,
  type Clock,
  type Fill,
  type Order,
  type SecuritySymbol,
} from '../domain/index.js';
import type { Logger } from '../log/logger.js';
import { signedQuantity } from '../risk/index.js';
import type { ChangeSource } from '../store/journal.js';
import type { Broker } from './broker.js';
import { text } from './events.js';
import type { Executor } from './executor.js';
import { recordFromJournal } from './order-tracker.js';
import { withTimeout } from './with-timeout.js';

interface BrokerSnapshot {
  readonly orders: readonly Order[];
  readonly positions: readonly BrokerPosition[];
  readonly balances: readonly AccountBalance[];
  readonly stable: boolean;
}

const SNAPSHOT_ATTEMPTS = 3;

export class Reconciler {
  private running = false;

  constructor(
    private readonly executor: Executor,
    private readonly broker: Broker,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {}

  /** Loads the journal's open orders, settles them against the broker and takes the broker's positions. */
  async start(): Promise<void> {
    const { tracker, flow, book, journal } = this.executor;
    const journalOrders = journal.openOrders();
    for (const row of journalOrders) tracker.add(recordFromJournal(row));
    const snapshot = await this.snapshot();
    const restartFills: Fill[] = [];
    for (const order of snapshot.orders) {
      const effect = flow.handleReport(order, 'restart', false);
      if (effect?.fill !== undefined) restartFills.push(effect.fill);
    }
    restartFills.push(...(await this.refreshMissing(snapshot.orders, 'restart', false)));
    this.resolveUnconfirmed(snapshot.orders, 'restart');
    this.compareWithJournal(snapshot.positions, restartFills);
    book.adopt(snapshot.positions);
    const now = this.clock.now();
    for (const position of book.all()) journal.savePosition(position, now);
    this.takeBalances(snapshot.balances);
    this.announce(snapshot);
    if (!snapshot.stable)
      this.logger.warn('orders kept executing during the start-up reconciliation; positions taken as the broker reported them');
  }

  /** One periodic pass; skipped while another is running. */
  async periodic(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const { flow, book, journal } = this.executor;
      const snapshot = await this.snapshot();
      for (const order of snapshot.orders) flow.handleReport(order, 'query');
      // Fills of our orders missing from today's list (a push lost on an earlier day) go in before the
      // comparison; whether the positions already held them is unknown, so that pass adopts nothing.
      const missed = await this.refreshMissing(snapshot.orders, 'query', true);
      if (snapshot.stable && missed.length === 0) {
        for (const difference of book.compare(snapshot.positions)) {
          flow.mismatch(
            'position',
            `${difference.symbol}: the broker reports ${text(difference.reported)}, the book has ${text(difference.expected)}; taking the broker's`,
            {
              symbol: difference.symbol,
              expected: text(difference.expected),
              reported: text(difference.reported),
            },
          );
        }
        book.adopt(snapshot.positions);
      }
      this.resolveUnconfirmed(snapshot.orders, 'query');
      const now = this.clock.now();
      for (const position of book.all()) journal.savePosition(position, now);
      this.takeBalances(snapshot.balances);
      this.announce(snapshot);
    } finally {
      this.running = false;
    }
  }

  private async snapshot(): Promise<BrokerSnapshot> {
    const ask = <T>(promise: Promise<T>, what: string): Promise<T> => withTimeout(promise, this.clock, this.timeoutMs, what);
    for (let attempt = 1; ; attempt += 1) {
      const fills = this.executor.flow.fillCount;
      const before = await ask(this.broker.todayOrders(), "today's orders");
      const positions = await ask(this.broker.positions(), 'positions');
      const orders = await ask(this.broker.todayOrders(), "today's orders");
      const balances = await ask(this.broker.accountBalance(), 'account balance');
      const stable = sameExecutions(before, orders) && this.executor.flow.fillCount === fills;
      if (stable || attempt === SNAPSHOT_ATTEMPTS) return { orders, positions, balances, stable };
    }
  }

  // Our open orders missing from today's list (e.g. a GTC order from an earlier day): ask for each one.
  private async refreshMissing(listed: readonly Order[], source: ChangeSource, applyToBook: boolean): Promise<Fill[]> {
    const listedIds = new Set(listed.map((order) => order.orderId));
    const fills: Fill[] = [];
    for (const record of this.executor.tracker.open()) {
      if (record.orderId === undefined || listedIds.has(record.orderId)) continue;
      try {
        const order = await withTimeout(this.broker.orderDetail(record.orderId), this.clock, this.timeoutMs, `order ${record.orderId}`);
        const effect = this.executor.flow.handleReport(order, source, applyToBook);
        if (effect?.fill !== undefined) fills.push(effect.fill);
      } catch (error) {
        this.logger.warn(
          { orderId: record.orderId, error: error instanceof Error ? error.message : String(error) },
          'cannot refresh an open order',
        );
      }
    }
    return fills;
  }

  // Orders we recorded but the broker never confirmed, and that are not in its list: they never arrived.
  private resolveUnconfirmed(listed: readonly Order[], source: ChangeSource): void {
    const remarks = new Set(listed.map((order) => order.remark));
    for (const record of this.executor.tracker.open()) {
      if (record.orderId !== undefined || this.executor.inFlight.has(record.clientOrderId) || remarks.has(record.clientOrderId)) continue;
      const reason = 'not found at the broker: the submit never arrived';
      this.executor.flow.localTransition(record, 'reject', source, reason);
      this.executor.flow.mismatch(
        'missing-order',
        `order ${record.clientOrderId} (${record.side} ${text(record.quantity)} ${record.symbol}) is ${reason}`,
        {
          clientOrderId: record.clientOrderId,
          strategy: record.strategy,
          symbol: record.symbol,
        },
      );
    }
  }

  // On restart: what the journal last knew (plus fills found now) against what the broker holds, for the
  // symbols the journal knows. Other broker positions simply predate the journal.
  private compareWithJournal(reported: readonly BrokerPosition[], restartFills: readonly Fill[]): void {
    const expected = new Map<SecuritySymbol, Quantity>();
    for (const position of this.executor.journal.positions()) expected.set(position.symbol, position.quantity);
    for (const fill of restartFills)
      expected.set(fill.symbol, (expected.get(fill.symbol) ?? Quantity.ZERO).plus(signedQuantity(fill.side, fill.quantity)));
    for (const [symbol, quantity] of expected) {
      const broker = reported
        .filter((position) => position.symbol === symbol)
        .reduce((sum, position) => sum.plus(position.quantity), Quantity.ZERO);
      if (broker.eq(quantity)) continue;
      this.executor.flow.mismatch(
        'position',
        `${symbol}: the broker reports ${text(broker)}, the journal expects ${text(quantity)}; taking the broker's`,
        {
          symbol,
          expected: text(quantity),
          reported: text(broker),
        },
      );
    }
  }

  private takeBalances(balances: readonly AccountBalance[]): void {
    this.executor.takeBalances(balances, undefined);
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
