// The backtest engine: the runtime of `trader run` (strategies, risk layer, executor: the same objects)
// against the simulated venue in process, on a virtual clock, over candle history.
//
// The bars are walked one bar time at a time (series-walk.ts): the venue matches and marks each bar first,
// then the strategies see it at its close instant (bar-close.ts); intents they emit are checked and
// submitted before the next bar (awaiting only when the runtime has to). After the last bar, orders still
// open never fill, and positions are valued at the last close.
import { Money } from '../domain/money.js';
import type { FixedInput } from '../domain/fixed-text.js';
import { InvalidInputError } from '../domain/errors.js';
import type { OrderIntent } from '../domain/intent.js';
import { marketOf, type SecuritySymbol } from '../domain/symbol.js';
import { MarketDays } from '../sim/venue/market-days.js';
import type { RuntimeEvent, RuntimeEventType } from '../execution/events.js';
import { silentLogger, type Logger } from '../log/logger.js';
import type { RiskLimits } from '../risk/config.js';
import { createRuntime } from '../runtime/runtime.js';
import type { RuntimeSummary } from '../runtime/summary.js';
import type { PreparedStrategy } from '../strategy/prepare.js';
import type { FeeModel } from '../sim/venue/fees.js';
import type { VenueSettingsInput } from '../sim/venue/settings.js';
import { Venue } from '../sim/venue/venue.js';
import type { CorporateAction } from '../sim/venue/corporate-actions.js';
import { VirtualClock } from '../clock/virtual-clock.js';
import { headOf, type CandleColumns } from '../feeds/history/candle-columns.js';
import { BarCloseTimes } from './bar-close.js';
import { CarryLog } from './carry-log.js';
import { BacktestBroker } from './broker.js';
import type { BacktestData } from './data.js';
import { historyOf } from './history.js';
import { BacktestMarketData } from './market-data.js';
import { checkResample } from './resample.js';
import { SeriesWalk } from './series-walk.js';
import { DENIALS_LISTED, type BacktestRecord, type DenialEntry, type EquityCurve, type RunFailure } from './result.js';
import { OrderIdTable } from '../sim/venue/order-register.js';
import { listOf } from '../domain/list-of.js';

export const DEFAULT_CASH = 1_000_000;

/** The runtime events a result is made of: the fills (for their tags), the denials and the strategies' failures. */
const RESULT_EVENTS: readonly RuntimeEventType[] = ['fill', 'denial', 'strategy-failed'];

/** Venue settings a backtest may choose (cash comes from `cash`, in the data's currency). */
export type BacktestVenueSettings = Omit<VenueSettingsInput, 'cash'>;

export interface BacktestOptions {
  readonly strategies: readonly PreparedStrategy[];
  readonly data: BacktestData;
  /** Starting cash in the data's currency; default 1,000,000. */
  readonly cash?: FixedInput;
  readonly venue?: BacktestVenueSettings;
  /** Dividends and splits applied on their ex-dates (data with unadjusted prices); none by default. */
  readonly actions?: readonly CorporateAction[];
  /** A fee model of your own (takes precedence over venue.fees). */
  readonly feeModel?: FeeModel;
  readonly risk?: RiskLimits;
  /** Runtime events are logged here; silent by default. */
  readonly logger?: Logger;
  /** Called every `every` bars with the bars done so far. */
  readonly progress?: { readonly every: number; update(done: number, total: number): void };
  /** Echoed into the result's `settings`. */
  readonly settings?: BacktestRecord['settings'];
  /** Keep every runtime event in `events` (tests; costs memory on long runs). */
  readonly keepEvents?: boolean;
  /**
   * Bars before `data`, for strategies that declare a warm-up: each plays its last `warmup` bars of them
   * before the run's first bar, as a paper run plays the service's history (what it decides on them is
   * dropped). Without it a run starts cold at its first bar.
   */
  readonly history?: BacktestData;
  /** Keep every intent in `intents` (tests compare them; costs memory on long runs). */
  readonly keepIntents?: boolean;
  /**
   * Bar close instants shared by runs over the same data (of its period), e.g. made with `remember` for the
   * trials of a research run; a fresh one per run otherwise.
   */
  readonly barCloses?: BarCloseTimes;
}

/** One decision of a strategy, in the order the executor took it. */
export interface RecordedIntent {
  /** Virtual time of the decision: the close instant of the bar it was made on. */
  readonly time: number;
  readonly strategy: string;
  readonly intent: OrderIntent;
}

export interface BacktestRun {
  readonly record: BacktestRecord;
  /** Every intent of every strategy, in order, when `keepIntents` was set (the parity and look-ahead tests compare these). */
  readonly intents: readonly RecordedIntent[];
  /** Runtime events, when `keepEvents` was set. */
  readonly events: readonly RuntimeEvent[];
  readonly summary: RuntimeSummary;
  /** How many intents were denied, per denial code (risk checks, venue refusals). */
  readonly denials: Readonly<Record<string, number>>;
  /** The venue after the run (open orders, executions, balances; finished orders are not kept). */
  readonly venue: Venue;
  /** Symbols whose quotes a strategy asked for: a backtest has none, so what it would decide on them is missing. */
  readonly quoteSymbols: readonly SecuritySymbol[];
  /** Symbols of the data whose candles the strategies never asked for. */
  readonly unreadSymbols: readonly SecuritySymbol[];
}

export async function runBacktest(options: BacktestOptions): Promise<BacktestRun> {
  const { data } = options;
  checkStrategies(options.strategies, data);
  const series = listOf(data.series, (one) => one.columns);
  const symbols = listOf(data.series, (one) => one.symbol);
  const cash = Money.of(options.cash ?? DEFAULT_CASH, data.currency, 'cash');
  const clock = new VirtualClock(SeriesWalk.firstTime(series));
  // Filled in as the venue books carry; it reads the venue's fills only then.
  const carry: CarryLog = new CarryLog((index) => venue.execution(index));
  const venue = new Venue({
    clock,
    settings: { ...options.venue, cash: { [data.currency]: cash.toString() } },
    keepFinishedOrders: false,
    keepCarryFlows: false,
    keepHistory: false,
    onCarry: (notice) => {
      carry.add(notice);
      broker.carryBooked(notice);
    },
    ...(options.actions === undefined ? {} : { actions: options.actions }),
    ...(options.feeModel === undefined ? {} : { feeModel: options.feeModel }),
  });
  const broker = new BacktestBroker(venue);
  const marketData = new BacktestMarketData(
    data.period,
    symbols,
    options.history === undefined ? undefined : historyOf(options.history),
    clock,
  );
  const runtime = createRuntime({
    clock,
    marketData,
    broker,
    strategies: options.strategies,
    logger: options.logger ?? silentLogger,
    reconcileIntervalMs: 0,
    // Sizing rounds to the lots this venue enforces.
    lotSizes: (symbol) => venue.instrument(symbol).lotSize,
    shortSelling: venue.settings.shortSelling,
    ...(options.risk === undefined ? {} : { risk: options.risk }),
  });
  const intents: RecordedIntent[] = [];
  const events: RuntimeEvent[] = [];
  const denials: Record<string, number> = {};
  const listedDenials: DenialEntry[] = [];
  const failures: RunFailure[] = [];
  const orderTags = new OrderIdTable<string>();
  // Once every strategy has failed, nothing more can happen: the walk stops at that bar.
  let everyStrategyFailed = false;
  const keepEvents = options.keepEvents === true;
  const keepIntents = options.keepIntents === true;
  const onEvent = (event: RuntimeEvent): void => {
    if (event.type === 'intent') {
      if (keepIntents) intents.push({ time: event.time, strategy: event.strategy, intent: event.intent });
    } else if (event.type === 'denial') {
      const { code, message, figures } = event.denial;
      denials[code] = (denials[code] ?? 0) + 1;
      if (listedDenials.length < DENIALS_LISTED)
        listedDenials.push({ time: event.time, strategy: event.strategy, code, message, intent: event.intent, figures });
    } else if (event.type === 'fill') {
      if (event.tag !== undefined) orderTags.set(event.fill.orderId, event.tag);
    } else if (event.type === 'strategy-failed') {
      failures.push({ strategy: event.strategy, source: event.source, failure: event.failure });
      everyStrategyFailed = failures.length >= options.strategies.length;
    }
    if (keepEvents) events.push(event);
  };
  // The result needs the fills' tags, the denials and the failures; every event (or the intents) only when kept.
  if (keepEvents) runtime.events.subscribe(onEvent);
  else runtime.listen(keepIntents ? [...RESULT_EVENTS, 'intent'] : RESULT_EVENTS, onEvent);

  await runtime.start();
  const barCloses = options.barCloses?.period === data.period ? options.barCloses : new BarCloseTimes(data.period);
  const walk = new SeriesWalk({
    series,
    inputs: listOf(symbols, (symbol) => venue.barInput(symbol, undefined, data.period)),
    closes: listOf(symbols, (symbol) => barCloses.of(symbol)),
    feeds: listOf(symbols, (symbol) => marketData.feed(symbol)),
    clock,
    venue,
    currency: data.currency,
    busy: () => runtime.busy || everyStrategyFailed,
    progress: options.progress,
  });
  let walked = walk.advance();
  while (!walked && !everyStrategyFailed) {
    await runtime.settled();
    walked = walk.advance();
  }
  // Coarser bars the data ended inside are emitted when their windows end, as a paper replay's end ends them: the
  // clock runs on to the end of the last bar's market day (a half day's day bar comes at the usual close).
  if (marketData.resampling && !everyStrategyFailed) {
    await clock.advanceToAsync(lastMarketDayEnd(data, clock.now()));
    await runtime.settled();
  }

  marketData.complete();
  await runtime.settled();
  const summary = await runtime.stop();
  broker.close();
  options.progress?.update(walk.total, walk.total);
  // The curve is marked in floats bar by bar, and their sum drifts off the exact figure (1,000,000.07 came
  // out as 1,000,000.0700000001): its last point is the account's exact equity, as the float nearest it.
  const finalEquity = walked ? venue.accountBalance(data.currency)[0]?.netAssets : undefined;
  if (finalEquity !== undefined) walk.settleLastEquity(finalEquity.toNumber());
  const equity = walk.equity();
  const strategyPeriods = new Set(options.strategies.map((strategy) => strategy.period));
  const record: BacktestRecord = {
    strategy: [...new Set(options.strategies.map((strategy) => strategy.name))].join(' + '),
    period: data.period,
    ...(strategyPeriods.size === 1 ? { strategyPeriod: [...strategyPeriods][0]! } : {}),
    currency: data.currency,
    initialCash: cash,
    bars: barsWalked(data, equity),
    equity,
    ...(finalEquity === undefined ? {} : { finalEquity }),
    fills: venue.executions(),
    carry: carry.entries,
    ...(options.settings === undefined ? {} : { settings: options.settings }),
    activity: { intents: summary.intents, orders: summary.orders, denialsByCode: { ...denials }, denials: listedDenials },
    failures,
    orderTags,
  };
  return {
    record,
    intents,
    events,
    summary,
    denials,
    venue,
    quoteSymbols: marketData.quoteSymbols,
    unreadSymbols: marketData.unreadSymbols,
  };
}

/** The end of the market day (the latest among the data's markets) of the instant `time`. */
function lastMarketDayEnd(data: BacktestData, time: number): number {
  let end = time;
  for (const market of new Set(data.series.map((series) => marketOf(series.symbol))))
    end = Math.max(end, new MarketDays(market).dayEnd(time));
  return end;
}

/** Each symbol's bars up to the last bar time walked (all of them, unless the run stopped early). */
function barsWalked(data: BacktestData, equity: EquityCurve): Map<SecuritySymbol, CandleColumns> {
  const points = equity.times.length;
  const last = points === 0 ? Number.NEGATIVE_INFINITY : equity.times[points - 1]!;
  return new Map(
    data.series.map((series) => {
      const { columns } = series;
      let end = columns.length;
      while (end > 0 && columns.time[end - 1]! > last) end -= 1;
      return [series.symbol, headOf(columns, end)] as const;
    }),
  );
}

/** Every strategy's symbols have data, and its period can be built from the data's. */
function checkStrategies(strategies: readonly PreparedStrategy[], data: BacktestData): void {
  const available = new Set<string>(data.series.map((series) => series.symbol));
  for (const strategy of strategies) {
    const missing = strategy.symbols.filter((symbol) => !available.has(symbol));
    if (missing.length > 0) {
      throw new InvalidInputError(
        `${strategy.source}: no candle data for ${missing.join(', ')} (the data has ${[...available].join(', ')}); pass --symbols or --data`,
        'symbols',
      );
    }
    checkResample(data.period, strategy.period, strategy.source);
  }
}
