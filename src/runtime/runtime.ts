// The pipeline of DESIGN.md, assembled once for every mode: market data → strategies → intents → risk →
// executor → broker, with order updates flowing back. Backtest, paper and live differ only in the Broker,
// MarketData and Clock they pass in.
import type { Observable, Subscription } from 'rxjs';
import { clockScheduler } from '../clock/scheduler.js';
import {
  marketOf,
  type Clock,
  type Market,
  type Money,
  type OrderIntent,
  type Price,
  type SecuritySymbol,
  type TimerHandle,
} from '../domain/index.js';
import type { Broker } from '../execution/broker.js';
import type { RuntimeEvent, RuntimeEventType } from '../execution/events.js';
import { Executor } from '../execution/executor.js';
import type { PositionBook } from '../execution/position-book.js';
import { Reconciler } from '../execution/reconciler.js';
import type { MarketData } from '../feeds/market-data.js';
import { silentLogger, type Logger } from '../log/logger.js';
import type { RiskLimits } from '../risk/config.js';
import type { Journal } from '../store/journal.js';
import type { PreparedStrategy } from '../strategy/prepare.js';
import { logEvents } from './event-log.js';
import { ExitJournal, type ExitView } from './exit-journal.js';
import { flattenPositions, flattenSymbol } from './flatten.js';
import { heldBack, type IntentGate } from './intent-gate.js';
import { MarketAdapter } from './market-adapter.js';
import type { LotSizes } from './lot-sizes.js';
import { StrategyHost, tradingUnits } from './strategy-host.js';
import { summarize, type RuntimeSummary } from './summary.js';
import { watchDayStarts } from './day-starts.js';
import { listOf } from '../domain/list-of.js';

export interface RuntimeOptions {
  readonly clock: Clock;
  /**
   * The clock of the strategies' scheduler (ctx.scheduler), when its timers must run on other time than
   * `clock`'s: a paper run's market time, while the runtime's own waits (timeouts, back-off) run on wall time.
   */
  readonly strategyClock?: Clock;
  readonly marketData: MarketData;
  readonly broker: Broker;
  readonly strategies: readonly PreparedStrategy[];
  /** Omit for runs that keep no journal (backtests). */
  readonly journal?: Journal;
  readonly risk?: RiskLimits;
  /** Events are logged here (pino); silent when omitted. */
  readonly logger?: Logger;
  /**
   * Periodic reconciliation with the broker; 0 turns it off (backtests). Default 30 s. While on, a broker
   * without a `carried` stream (one over the wire) is also reconciled at each market day's start (day-starts.ts).
   */
  readonly reconcileIntervalMs?: number;
  /** Prefix of client order ids (remarks). Default 'lt'. */
  readonly clientIdPrefix?: string;
  readonly requestTimeoutMs?: number;
  readonly lookupAttempts?: number;
  readonly lookupDelayMs?: number;
  /** Market of the kill switches' day and currency; default: the first strategy's first symbol's market. */
  readonly homeMarket?: Market;
  /**
   * Each symbol's board lot, the unit sizing helpers (targetPercent, buyValue, …) round to; whole shares
   * (1) when omitted. Backtests pass their venue's lots, paper and live runs the service's static info.
   */
  readonly lotSizes?: LotSizes;
  /** Wall clock of live and paper runs: when market data reached the strategies (see lastTickAt). */
  readonly wallClock?: Pick<Clock, 'now'>;
  /** Asked before each strategy intent goes on; what it holds back is recorded as denied with its code. */
  readonly gate?: IntentGate;
  /** Whether the account may sell short, when known (a simulated venue's setting): names the sell denials. */
  readonly shortSelling?: boolean;
  /**
   * Whether the broker books a corporate action of the symbol with an ex-date in (after, through], when it
   * can tell (a paper run's simulator): day-start passes are then made only on those days. Live, every held
   * market day has one.
   */
  readonly actsBetween?: (symbol: SecuritySymbol, after: string | undefined, through: string) => boolean;
  /**
   * Cash the broker books outside fills, signed, as it books it, where it can tell (a paper run's simulator:
   * dividends, borrow fees, cash in lieu): the book's cash moves at once instead of at the next reconciliation.
   * Moves, not the broker's cash: a fill whose push is still on its way would be counted twice.
   */
  readonly carriedCash?: Observable<Money>;
}

export interface StopOptions {
  /** Cancel this run's open orders before returning. */
  readonly cancelOpenOrders?: boolean;
  /** Close the positions in the strategies' symbols first (market orders through risk and the executor). */
  readonly flatten?: boolean;
  /** How long to wait for the closing orders to finish; default 30 s. */
  readonly flattenWaitMs?: number;
}

export interface Runtime {
  /** Everything the runtime does, as events (completes after stop). */
  readonly events: Observable<RuntimeEvent>;
  /**
   * Calls `listener` with the events of `types` only (until stop, or the subscription ends): events of a type
   * that no one listens for, here or through `events`, are not made.
   */
  listen(types: readonly RuntimeEventType[], listener: (event: RuntimeEvent) => void): Subscription;
  /** True while intents or submissions are in flight; a backtest awaits settled() before the next bar. */
  readonly busy: boolean;
  settled(): Promise<void>;
  /**
   * Reconciles journal and broker, re-arms the exits the journal holds for positions still open, then starts
   * the strategies and resolves once their warm-ups (history bars before live data) are played. Feed market
   * data only after it resolves.
   */
  start(): Promise<void>;
  /** One reconciliation pass now (e.g. after the broker's push stream reconnected). */
  reconcileNow(): Promise<void>;
  /**
   * The gate may hold intents back now (a job stopping, a pause, the kill switch): an intent waiting for its
   * risk figures stops waiting for the reads the account's pacing still holds, and is denied at once if the
   * gate holds it back.
   */
  recheckGate(): void;
  /**
   * Stops taking intents at once (queued ones are dropped), waits for requests already sent, optionally
   * flattens and cancels open orders (then asks the broker once more, so the journal keeps where those
   * orders ended), flushes the journal.
   */
  stop(options?: StopOptions): Promise<RuntimeSummary>;
  /** The executor's position book (synchronous reads). */
  readonly positions: Pick<PositionBook, 'quantity' | 'get' | 'all'>;
  /** The summary so far (the final one after stop). */
  summary(): RuntimeSummary;
  /** The last price the strategies saw for a symbol (what market orders are valued at). */
  lastPrice(symbol: SecuritySymbol): Price | undefined;
  /** Wall time the latest candle or quote reached the strategies (with a wallClock only). */
  readonly lastTickAt: number | undefined;
  /** Cancels every open order of this runtime; resolves to how many cancels were sent. */
  cancelOpenOrders(): Promise<number>;
  /**
   * Closes one symbol's position with a market order through risk and the executor (asked by a person);
   * resolves false when there was nothing to close, true once the closing order finished (or `waitMs` passed).
   */
  flatten(symbol: SecuritySymbol, reason: string, waitMs?: number): Promise<boolean>;
  /** Keeps an event in the journal at the runtime's time (a person's control action, say). */
  recordEvent(type: string, detail: Readonly<Record<string, unknown>>): void;
}

/** The runtime's live readings, as getters on a prototype rather than in the literal: see test/backtest/young-generation.test.ts. */
class LiveReadings {
  readonly #executor: Executor;
  readonly #market: MarketAdapter;

  constructor(executor: Executor, market: MarketAdapter) {
    this.#executor = executor;
    this.#market = market;
  }

  get busy(): boolean {
    return this.#executor.busy;
  }

  get lastTickAt(): number | undefined {
    return this.#market.lastDeliveredAt;
  }
}

export function createRuntime(options: RuntimeOptions): Runtime {
  const logger = options.logger ?? silentLogger;
  const { clock, broker } = options;
  const homeMarket = options.homeMarket ?? firstMarket(options.strategies);
  const timeoutMs = options.requestTimeoutMs ?? 10_000;
  const executor = new Executor({
    broker,
    clock,
    logger,
    ...(options.journal === undefined ? {} : { journal: options.journal }),
    ...(options.risk === undefined ? {} : { limits: options.risk }),
    ...(homeMarket === undefined ? {} : { homeMarket }),
    ...(options.clientIdPrefix === undefined ? {} : { clientIdPrefix: options.clientIdPrefix }),
    requestTimeoutMs: timeoutMs,
    ...(options.lookupAttempts === undefined ? {} : { lookupAttempts: options.lookupAttempts }),
    ...(options.lookupDelayMs === undefined ? {} : { lookupDelayMs: options.lookupDelayMs }),
    ...(options.shortSelling === undefined ? {} : { shortSelling: options.shortSelling }),
    ...(options.gate === undefined ? {} : { heldBack: (intent: OrderIntent) => heldBack(options.gate, intent) }),
  });
  const reconciler = new Reconciler(executor, broker, clock, logger, timeoutMs);
  const market = new MarketAdapter(options.marketData, executor.prices, options.wallClock);
  const scheduler = clockScheduler(options.strategyClock ?? clock);
  const units = tradingUnits(options.lotSizes);
  const hosts = listOf(
    uniqueNames(options.strategies),
    ({ name, strategy }) => new StrategyHost(name, strategy, executor, market, clock, scheduler, logger, units, options.gate),
  );
  const hostNames = listOf(hosts, (host) => host.name);
  // Exits outlive the process only where there is a journal: a backtest pays nothing for them per bar.
  const exitJournal = options.journal === undefined ? undefined : new ExitJournal(executor.journal, clock, logger);
  const exitView: ExitView = {
    quantity: (symbol) => executor.book.quantity(symbol),
    hasWorkingOrder: (strategy, symbol) => executor.tracker.open(strategy, symbol).length > 0,
  };
  const subscriptions: Subscription[] = [logEvents(executor.events, logger)];
  let timer: TimerHandle | undefined;
  let started = false;
  let stopping = false;
  let finalSummary: RuntimeSummary | undefined;

  // Intents queued after the pass wait for it: none is resolved on the positions of the day before.
  const reconcileAtDayStarts = (): Subscription =>
    watchDayStarts({
      symbols: options.strategies.flatMap((strategy) => strategy.symbols),
      quotes: (symbol) => options.marketData.quotes(symbol),
      // A paper replay's fast days against the call limits: a pass only where its simulator books an action.
      due: (market, after, through) =>
        executor.book
          .all()
          .some(
            (position) =>
              !position.quantity.isZero() &&
              marketOf(position.symbol) === market &&
              (options.actsBetween?.(position.symbol, after, through) ?? true),
          ),
      dayStarted: (started) =>
        executor.queueTask(() =>
          reconciler
            .dayStart()
            .catch((error: unknown) =>
              logger.warn(
                { market: started, error: error instanceof Error ? error.message : String(error) },
                "reconciliation at the market day's start failed",
              ),
            ),
        ),
    });

  return Object.assign<LiveReadings, Omit<Runtime, keyof LiveReadings>>(new LiveReadings(executor, market), {
    events: executor.events.asObservable(),
    listen: (types, listener) => executor.events.listen(types, listener),
    settled: () => executor.settled(),
    positions: executor.book,
    summary: () => finalSummary ?? summarize(executor, hosts),
    reconcileNow: () => reconciler.periodic(),
    recheckGate: () => executor.recheck(),
    lastPrice: (symbol) => executor.prices.price(symbol),
    cancelOpenOrders: () => executor.cancelOpen(),
    flatten: (symbol, reason, waitMs = 30_000) => flattenSymbol(executor, symbol, reason, clock, waitMs),
    recordEvent: (type, detail) => executor.journal.recordEvent(clock.now(), type, detail),

    async start() {
      if (started) throw new Error('the runtime was already started');
      started = true;
      subscriptions.push(
        (broker.immediate?.reports ?? broker.orderUpdates).subscribe({
          next: (update) => {
            try {
              executor.flow.handleReport(update, 'push');
            } catch (error) {
              logger.error(
                { orderId: update.orderId, error: error instanceof Error ? error.message : String(error) },
                'cannot apply an order update',
              );
            }
          },
          error: (error: unknown) =>
            logger.error({ error: error instanceof Error ? error.message : String(error) }, 'the order update stream failed'),
        }),
      );
      if (options.carriedCash !== undefined) subscriptions.push(options.carriedCash.subscribe((amount) => executor.book.moveCash(amount)));
      executor.journal.recordEvent(clock.now(), 'started', {
        strategies: hosts.map((host) => ({ name: host.name, source: host.strategy.source })),
      });
      await reconciler.start();
      // Stopped meanwhile (a start cut short): nothing is set going.
      if (stopping) return;
      const interval = options.reconcileIntervalMs ?? 30_000;
      if (interval > 0) {
        timer = clock.setInterval(() => {
          reconciler
            .periodic()
            .catch((error: unknown) =>
              logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'periodic reconciliation failed'),
            );
        }, interval);
        if (broker.immediate?.carried === undefined) subscriptions.push(reconcileAtDayStarts());
      }
      const restored = exitJournal?.restore(exitView, hostNames);
      for (const host of hosts) {
        const held = restored?.get(host.name);
        host.start(
          exitJournal === undefined ? {} : { keeper: exitJournal.keeperFor(host.name), ...(held === undefined ? {} : { restored: held }) },
        );
      }
      // Live bars that come meanwhile are held by each stream; waiting lets a paper replay start warm.
      await Promise.all(hosts.map((host) => host.warmedUp()));
    },

    async stop(stopOptions = {}) {
      if (finalSummary !== undefined) return finalSummary;
      stopping = true;
      // No intent is taken from here on; only requests already sent finish.
      for (const host of hosts) host.stop();
      executor.close();
      await executor.settled();
      let settle = false;
      if (stopOptions.flatten === true && started) {
        const closed = await flattenPositions(executor, hosts, clock, stopOptions.flattenWaitMs ?? 30_000);
        logger.info({ symbols: closed }, closed.length === 0 ? 'nothing to flatten on stop' : 'flattened positions on stop');
        settle = closed.length > 0;
      }
      if (stopOptions.cancelOpenOrders === true) {
        const sent = await executor.cancelOpen();
        logger.info({ cancelled: sent }, 'cancelled open orders on stop');
        settle ||= sent > 0;
      }
      timer?.cancel();
      if (settle)
        await reconciler
          .periodic()
          .catch((error: unknown) =>
            logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'final reconciliation failed'),
          );
      if (started) exitJournal?.forgetClosed(exitView, hostNames);
      const summary = summarize(executor, hosts);
      executor.journal.recordEvent(clock.now(), 'stopped', {
        intents: summary.intents,
        orders: summary.orders,
        fills: summary.fills,
        denials: summary.denials,
      });
      executor.journal.flush();
      for (const subscription of subscriptions) subscription.unsubscribe();
      executor.events.complete();
      finalSummary = summary;
      return summary;
    },
  });
}

function firstMarket(strategies: readonly PreparedStrategy[]): Market | undefined {
  const symbol = strategies[0]?.symbols[0];
  return symbol === undefined ? undefined : marketOf(symbol);
}

// Two instances of one strategy (e.g. different symbols) get distinct names: name, name#2, …
function uniqueNames(strategies: readonly PreparedStrategy[]): { name: string; strategy: PreparedStrategy }[] {
  const seen = new Map<string, number>();
  return listOf(strategies, (strategy) => {
    const count = (seen.get(strategy.name) ?? 0) + 1;
    seen.set(strategy.name, count);
    return { name: count === 1 ? strategy.name : `${strategy.name}#${count}`, strategy };
  });
}
