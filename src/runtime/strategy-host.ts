// Runs one strategy: builds its context, subscribes to its intents and hands them to the executor. A throw
// in run(), an error in its stream or something that is not an intent stops this strategy only: it is
// unsubscribed, its queued intents are dropped, and a strategy-failed event names it and the cause. With a
// warm-up, each candle stream plays history first; intents made on history bars are dropped.
import { filter, map, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import {
  Money,
  NO_CURRENCY,
  Price,
  Quantity,
  currencyOf,
  marketOf,
  parseSymbol,
  type Candle,
  type Clock,
  type OrderIntent,
  type Period,
  type SecuritySymbol,
} from '../domain/index.js';
import type { Executor } from '../execution/executor.js';
import type { Logger } from '../log/logger.js';
import type { IntentDenial, StrategyContext, StrategyOrderUpdate } from '../strategy/context.js';
import { describeError } from '../strategy/errors.js';
import { barText, describeFailure, locateInStack, type StrategyFailure } from '../strategy/failure.js';
import { withExits, type ExitContext, type ExitOptions } from '../strategy/exits.js';
import { createIntentHelpers } from '../strategy/intents.js';
import { createSizingHelpers, unrealizedPnl } from '../strategy/sizing.js';
import type { ParamDefaults, Params } from '../strategy/params.js';
import type { PreparedStrategy } from '../strategy/prepare.js';
import { heldBack, type IntentGate } from './intent-gate.js';
import type { LotSizes } from './lot-sizes.js';
import { handedBarOf, handing, type HandedBar, type MarketAdapter } from './market-adapter.js';
import { warmedUp, type WarmUpOutcome } from './warm-up.js';
import { tapCandles } from './candles-in-bars.js';

export type StrategyState = 'idle' | 'running' | 'completed' | 'failed' | 'stopped';

const ONE_UNIT = Quantity.of(1);
const INTENT_KINDS: ReadonlySet<string> = new Set(['order', 'close', 'target', 'cancel']);

export class StrategyHost {
  state: StrategyState = 'idle';
  error: string | undefined;
  /** Where, when and why it failed (state 'failed'). */
  failure: StrategyFailure | undefined;
  private subscription: Subscription | undefined;
  /** The candle handed to the strategy last, and its place in its stream. */
  private readonly handed: HandedBar = { candle: undefined, columns: undefined, at: 0, index: -1 };
  private readonly symbolCache = new Map<string, SecuritySymbol>();
  /** True while history bars are played: what the strategy emits then is about the past. */
  private replayingHistory = false;
  /**
   * The last close of each symbol's warm-up history: what sizing prices a decision made on a history bar at
   * (the run has no price of its own yet, and the decision is dropped anyway; it must not throw).
   */
  private readonly historyCloses = new Map<SecuritySymbol, number>();
  private readonly warmUps: Promise<void>[] = [];

  constructor(
    readonly name: string,
    readonly strategy: PreparedStrategy,
    private readonly executor: Executor,
    private readonly market: MarketAdapter,
    private readonly clock: Clock,
    private readonly scheduler: SchedulerLike,
    private readonly logger: Logger,
    /** The unit a symbol's orders come in (its board lot): what sizing rounds to. */
    private readonly unitOf: (symbol: SecuritySymbol) => Quantity = () => ONE_UNIT,
    /** Asked before each intent goes to the executor (a person's pause, the kill switch, an outage). */
    private readonly gate?: IntentGate,
  ) {}

  /** `exits`: where held exits are kept (a journal) and the ones to re-arm, on a run that keeps them. */
  start(exits: ExitOptions = {}): void {
    this.state = 'running';
    let intents: Observable<OrderIntent>;
    try {
      const context = this.context();
      const own = this.strategy.definition.run(context);
      if (typeof own?.subscribe !== 'function') throw new TypeError('run() must return an Observable of intents');
      // Exits attached to entries watch the symbol's bars as they close (never history: no exit on the past).
      const exitContext: ExitContext = {
        close: context.close,
        cancel: context.cancel,
        denials: context.denials,
        positions: context.positions,
        clock: context.clock,
        addingOrderWorks: (symbol, direction) =>
          this.executor.tracker.open(this.name, symbol).some((record) => (record.side === 'Buy') === (direction === 1)),
      };
      intents = withExits(own, exitContext, (symbol) => this.market.candles(symbol, this.strategy.period), exits);
    } catch (error) {
      this.fail(error);
      return;
    }
    const subscription = intents.subscribe({
      next: (intent) => {
        if (this.state !== 'running') return;
        if (!isIntent(intent))
          this.fail(new TypeError(`emitted ${describeValue(intent)}, which is not an intent (use ctx.buy/sell/close/target/cancel)`));
        else if (this.replayingHistory)
          this.logger.debug(
            { strategy: this.name, kind: intent.kind, symbol: intent.symbol, reason: intent.reason },
            'dropped an intent made on a history bar (warm-up)',
          );
        else this.pass(intent);
      },
      error: (error: unknown) => this.fail(error),
      complete: () => {
        if (this.state === 'running') this.state = 'completed';
      },
    });
    if (this.state === 'running' || this.state === 'completed') this.subscription = subscription;
    else subscription.unsubscribe();
  }

  /** To the executor, or recorded there as denied when the gate holds it back. */
  private pass(intent: OrderIntent): void {
    const held = heldBack(this.gate, intent);
    if (held === undefined) this.executor.enqueue(this.name, intent);
    else this.executor.holdBack(this.name, intent, { ...held, figures: {} });
  }

  /** Settles when every candle stream subscribed so far has played its history (or given up on it). */
  async warmedUp(): Promise<void> {
    await Promise.all(this.warmUps);
  }

  stop(): void {
    if (this.state === 'running') this.state = 'stopped';
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }

  private fail(cause: unknown): void {
    if (this.state === 'failed') return;
    this.state = 'failed';
    this.executor.dropStrategy(this.name);
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    this.error = describeError(cause);
    const stack = cause instanceof Error ? cause.stack : undefined;
    const candle = handedBarOf(this.handed);
    const failure: StrategyFailure = {
      error: this.error,
      location: locateInStack(stack, this.strategy.source),
      bar: candle === undefined ? undefined : { symbol: candle.symbol, period: candle.period, time: candle.time, index: this.handed.index },
      stack,
    };
    this.failure = failure;
    const time = this.clock.now();
    this.executor.journal.recordEvent(time, 'strategy-failed', {
      strategy: this.name,
      source: this.strategy.source,
      error: this.error,
      ...(failure.location === undefined ? {} : { location: failure.location }),
      ...(failure.bar === undefined ? {} : { bar: failure.bar }),
    });
    this.executor.events.next({
      type: 'strategy-failed',
      time,
      strategy: this.name,
      source: this.strategy.source,
      error: describeFailure(
        this.name,
        this.strategy.source,
        this.error,
        failure.location,
        failure.bar === undefined ? undefined : barText(failure.bar),
      ),
      failure,
    });
  }

  /** A warmed-up stream with each candle noted as handed over (history bars do not pass the market adapter). */
  private tracked(candles: Observable<Candle>): Observable<Candle> {
    return tapCandles(candles, () => handing(this.handed));
  }

  private candles(symbol: SecuritySymbol, period: Period): Observable<Candle> {
    const bars = this.strategy.warmup;
    if (bars === 0) return this.market.candles(symbol, period, this.handed);
    if (!this.market.hasHistory) {
      this.logger.debug(
        { strategy: this.name, symbol, period, warmup: bars },
        'no warm-up: this market data has no history (a backtest starts at its first bar)',
      );
      return this.market.candles(symbol, period, this.handed);
    }
    return this.tracked(this.withHistory(this.market.candles(symbol, period), symbol, period, bars));
  }

  private withHistory(live: Observable<Candle>, symbol: SecuritySymbol, period: Period, bars: number): Observable<Candle> {
    const loadHistory = async (): Promise<readonly Candle[]> => {
      const candles = await this.market.history(symbol, period, bars);
      const last = candles.at(-1);
      if (last !== undefined) this.historyCloses.set(symbol, last.close);
      return candles;
    };
    return warmedUp(live, loadHistory, {
      replaying: (active) => {
        this.replayingHistory = active;
      },
      loading: (settled) => {
        this.warmUps.push(settled);
      },
      done: (outcome) => this.reportWarmUp(symbol, period, bars, outcome),
    });
  }

  private reportWarmUp(symbol: SecuritySymbol, period: Period, wanted: number, outcome: WarmUpOutcome): void {
    const fields = { strategy: this.name, symbol, period, wanted };
    if (outcome.kind === 'failed')
      this.logger.warn(
        { ...fields, error: describeError(outcome.error) },
        `history unavailable: ${describeError(outcome.error)}; starting cold`,
      );
    else if (outcome.bars < wanted)
      this.logger.warn(
        { ...fields, bars: outcome.bars },
        `warmed up on ${outcome.bars} of ${wanted} bars of history (no more available); indicators may still be cold`,
      );
    else this.logger.info({ ...fields, bars: outcome.bars }, `warmed up on ${outcome.bars} bars of history`);
  }

  private symbolOf(input: SecuritySymbol | string | undefined): SecuritySymbol {
    if (input === undefined) return this.strategy.symbols[0]!;
    let symbol = this.symbolCache.get(input);
    if (symbol === undefined) {
      symbol = parseSymbol(input);
      this.symbolCache.set(input, symbol);
    }
    return symbol;
  }

  private context(): StrategyContext<Params<ParamDefaults>> {
    const { strategy, executor, market, name } = this;
    const book = executor.book;
    const defaultSymbol = strategy.symbols[0]!;
    const helpers = createIntentHelpers(defaultSymbol);
    const orderUpdates = executor.flow.changes.pipe(
      filter((change) => change.record.strategy === name),
      map(
        ({ record, fill }): StrategyOrderUpdate => ({
          clientOrderId: record.clientOrderId,
          orderId: record.orderId,
          symbol: record.symbol,
          side: record.side,
          orderType: record.orderType,
          status: record.status,
          quantity: record.quantity,
          executedQuantity: record.executedQuantity,
          averagePrice: record.executedPrice,
          fill,
          message: record.message,
          tag: record.tag,
        }),
      ),
    );
    const denials = executor.events.pipe(
      filter((event) => event.type === 'denial' && event.strategy === name),
      map((event): IntentDenial => {
        if (event.type !== 'denial') throw new Error('unreachable');
        return {
          intent: event.intent,
          code: event.denial.code,
          message: event.denial.message,
          figures: event.denial.figures,
          time: event.time,
        };
      }),
    );
    return Object.assign<WarmUpReading, Omit<StrategyContext<Params<ParamDefaults>>, keyof WarmUpReading>>(new WarmUpReading(this), {
      name,
      symbols: strategy.symbols,
      symbol: defaultSymbol,
      period: strategy.period,
      // Validated against the definition's defaults (or its schema) by prepareStrategy.
      params: strategy.params as Params<ParamDefaults>,
      candles: (symbol, period) => this.candles(this.symbolOf(symbol), period ?? strategy.period),
      quotes: (symbol) => market.quotes(this.symbolOf(symbol)),
      orderUpdates,
      denials,
      positions: {
        quantity: (symbol) => book.quantity(this.symbolOf(symbol)),
        get: (symbol) => book.get(this.symbolOf(symbol)),
        all: () => book.all(),
        unrealizedPnl: (symbol) => {
          const resolved = this.symbolOf(symbol);
          const position = book.get(resolved);
          const price = executor.prices.price(resolved);
          if (position === undefined || price === undefined) return Money.zero(currencyOf(marketOf(resolved)));
          return unrealizedPnl(position, price);
        },
      },
      account: {
        balance: (currency) => book.balance(currency),
        cash: (currency) => book.cashIn(currency),
        buyPower: (currency) => book.balance(currency)?.buyPower ?? Money.zero(currency ?? book.balance()?.currency ?? NO_CURRENCY),
      },
      clock: this.clock,
      scheduler: this.scheduler,
      log: this.logger.child({ strategy: name }),
      ...helpers,
      lastPrice: (symbol) => executor.prices.price(this.symbolOf(symbol)),
      lotSize: (symbol) => this.unitOf(this.symbolOf(symbol)).toNumber(),
      ...createSizingHelpers({
        defaultSymbol,
        lastPrice: (symbol) => executor.prices.price(symbol) ?? this.warmUpPrice(symbol),
        positions: () => book.all(),
        cash: (currency) => book.cashIn(currency),
        unitOf: this.unitOf,
        ...helpers,
      }),
    });
  }

  /** While history is replayed, the last close of the symbol's history (see historyCloses). */
  private warmUpPrice(symbol: SecuritySymbol): Price | undefined {
    const close = this.replayingHistory ? this.historyCloses.get(symbol) : undefined;
    return close === undefined ? undefined : Price.of(close);
  }

  /** Whether the host is replaying warm-up history (what ctx.warmingUp reads). */
  get replaying(): boolean {
    return this.replayingHistory;
  }
}

/** ctx.warmingUp, as a getter on a prototype rather than in the literal: see test/backtest/young-generation.test.ts. */
class WarmUpReading {
  readonly #host: { readonly replaying: boolean };

  constructor(host: { readonly replaying: boolean }) {
    this.#host = host;
  }

  get warmingUp(): boolean {
    return this.#host.replaying;
  }
}

/** Each symbol's lot as a Quantity, made once per symbol (sizing asks on every call); whole shares without lots. */
export function tradingUnits(lotSizes: LotSizes | undefined): (symbol: SecuritySymbol) => Quantity {
  if (lotSizes === undefined) return () => ONE_UNIT;
  const units = new Map<SecuritySymbol, Quantity>();
  return (symbol) => {
    let unit = units.get(symbol);
    if (unit === undefined) units.set(symbol, (unit = Quantity.of(lotSizes(symbol))));
    return unit;
  };
}

function isIntent(value: unknown): value is OrderIntent {
  return typeof value === 'object' && value !== null && INTENT_KINDS.has((value as { kind?: unknown }).kind as string);
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return `an object ${JSON.stringify(value).slice(0, 60)}`;
  return `${typeof value} ${String(value).slice(0, 60)}`;
}
