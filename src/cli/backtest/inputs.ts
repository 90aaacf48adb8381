// What every command over candle history reads from its flags before running: venue and costs, cash, the
// risk config, the strategy (with fixed params), the data and its corporate actions, loaded once (backtest,
// optimize, walkforward, check).
import { reportUnhandledStreamErrors } from '../../strategy/unhandled-errors.js';
import { loadBacktestData, symbolsOfDataPath, type BacktestData } from '../../backtest/data.js';
import { fileStem, isCandleFile, symbolFromFileName } from '../../feeds/history/candle-files.js';
import { describeProblem } from '../../feeds/history/bad-data-error.js';
import { basename } from 'node:path';
import { weekendDayBars } from '../../backtest/weekend-day-bars.js';
import { zeroVolumeBars } from '../../backtest/zero-volume-bars.js';
import { isIntraday } from '../../domain/period.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { marketOf } from '../../domain/symbol.js';
import { localDate } from '../../domain/time-zone.js';
import type { CorporateAction, PriceAdjustment } from '../../domain/corporate-action.js';
import { parseChoice } from '../../domain/order-types.js';
import type { Fixed } from '../../domain/fixed.js';
import { loadCorporateActions } from '../../feeds/history/corporate-actions-file.js';
import { loadRiskConfig, type RiskLimits } from '../../risk/config.js';
import { loadStrategy, type ParamOverrides, type PreparedStrategy } from '../../strategy/index.js';
import type { RunInputs } from '../../files/output-file.js';
import { defaultDataPath } from '../project/config.js';
import { periodFlag } from '../trading/flags.js';
import { InvalidInputError } from '../../domain/errors.js';
import { sliceData } from '../../backtest/data.js';
import { dateRangeOf, type DateRange } from './date-range.js';
import { readSecurities, securitiesFileOf } from '../../feeds/history/securities-file.js';
import {
  ADJUSTMENTS,
  BAD_ROW_POLICIES,
  cashFlag,
  riskFreeRateFlag,
  symbolsFlag,
  venueChoice,
  type BacktestArgs,
  type VenueChoice,
} from './flags.js';

export interface BacktestInputs {
  readonly venue: VenueChoice;
  readonly cash: Fixed;
  readonly riskFreeRate: number;
  readonly strategy: PreparedStrategy;
  /** The strategy loaded from its file once more, its module evaluated again (trader check's determinism). */
  readonly loadStrategyAfresh: () => Promise<PreparedStrategy>;
  readonly risk: RiskLimits | undefined;
  /** The data of the run: all of it, or the bars of --from/--to. */
  readonly data: BacktestData;
  /** Every bar loaded (`data` is a window of it under --from/--to). */
  readonly allData: BacktestData;
  /** --from/--to, when given. */
  readonly range: DateRange | undefined;
  /** The bars before --from: the strategies' warm-up history. */
  readonly history: BacktestData | undefined;
  /** --data, or the project's data folder (trader.json), or the bundled sample. */
  readonly dataPath: string;
  readonly adjust: PriceAdjustment;
  /** The data's dividends and splits, applied on their ex-dates (none with --adjust forward). */
  readonly actions: readonly CorporateAction[];
}

export interface LoadHooks {
  /** Called just before the strategy is loaded. */
  readonly beforeStrategy?: () => void;
  /** Called once the flags, the strategy and the risk config are read, before the data is (start-up timing). */
  readonly beforeData?: () => void;
  /** Stops the data's load (a Ctrl-C): the inputs then reject with the signal's reason. */
  readonly signal?: AbortSignal;
}

/** What a run of these flags reads (strategy, data, risk config), so that no output of it is written over them. */
export async function runInputs(args: Pick<BacktestArgs, 'strategy' | 'data' | 'risk'>): Promise<RunInputs> {
  return [
    ['the strategy file', args.strategy],
    ['the data', await dataPathOf(args)],
    ['the risk config', args.risk],
  ];
}

/**
 * A file not named after a symbol is read as the one symbol asked for: said when its name is another code
 * of the market (SPY.csv read as AAPL.US is more likely a slip than a choice).
 */
function noteRenamedFile(path: string, data: BacktestData): void {
  const [series] = data.series;
  if (data.series.length !== 1 || series === undefined || !isCandleFile(path) || symbolFromFileName(path) !== undefined) return;
  const stem = fileStem(path);
  const code = series.symbol.slice(0, series.symbol.lastIndexOf('.'));
  // Only a name that looks like a ticker itself (SPY.csv, not AAPL_20140605.csv or prices-2024.csv).
  if (!/^[A-Za-z]{1,6}$|^\d{1,5}$/.test(stem) || stem.toUpperCase() === code.toUpperCase() || Number(stem) === Number(code)) return;
  process.stderr.write(`note: reading ${basename(path)} as ${series.symbol} (--symbols): its name is not that symbol's\n`);
}

/** Day bars on a weekend: most likely day rows written with a time and an offset of another zone. */
function noteWeekendDayBars(data: BacktestData): void {
  if (data.period !== 'day') return;
  const found = weekendDayBars(data.series);
  if (found === undefined) return;
  const zone = timeZoneOf(marketOf(found.series.symbol));
  process.stderr.write(
    `note: ${found.onWeekend} of the first ${found.checked} day bars of ${found.series.symbol} fall on a Saturday or Sunday in ${zone} ` +
      `(the first ${localDate(found.first, zone)}): day rows with a time and an offset are read as those instants ` +
      `(2024-01-08T00:00:00Z is the evening of the 7th in New York); write day rows as dates alone\n`,
  );
}

/** Day bars of volume 0 among traded ones (stale holiday rows) fill whole orders at their repeated price: said. */
function noteZeroVolumeBars(data: BacktestData): void {
  if (isIntraday(data.period)) return;
  const found = zeroVolumeBars(data.series);
  const [first] = found;
  if (first === undefined) return;
  const count = found.reduce((sum, one) => sum + one.count, 0);
  const zone = timeZoneOf(marketOf(first.series.symbol));
  const others = found.length === 1 ? '' : ` and ${found.length - 1} more symbol${found.length === 2 ? '' : 's'}`;
  process.stderr.write(
    `note: ${count} bar${count === 1 ? '' : 's'} of volume 0 among bars with volume, in ${first.series.symbol} (the first ${localDate(first.first, zone)})${others}: ` +
      "a volume of 0 reads as no volume data, so orders fill there whole at the bar's prices; some exports write such rows for " +
      'holidays (the last close repeated): drop them from the data\n',
  );
}

/** --data, else the project's data folder (trader.json), else the bundled sample. */
function dataPathOf(args: Pick<BacktestArgs, 'strategy' | 'data'>): Promise<string> {
  // --data given twice is refused with every other repeated flag (cli/repeated-flags.ts).
  return args.data === undefined ? defaultDataPath(args.strategy) : Promise.resolve(args.data);
}

/** Flags first (bad ones fail before any file is read), then the strategy, the risk config and the data. */
export async function loadBacktestInputs(args: BacktestArgs, params: ParamOverrides, hooks: LoadHooks = {}): Promise<BacktestInputs> {
  const dataPath = await dataPathOf(args);
  const venue = venueChoice(args);
  const cash = cashFlag(args.cash);
  const riskFreeRate = riskFreeRateFlag(args);
  const onBadRow = parseChoice(BAD_ROW_POLICIES, String(args['on-bad-row']), '--on-bad-row');
  const adjust = parseChoice(ADJUSTMENTS, String(args.adjust ?? 'none'), '--adjust');
  const period = args.period === undefined ? undefined : periodFlag(String(args.period), '--period');
  const symbols = symbolsFlag(args.symbols) ?? (await symbolsOfDataPath(dataPath, (note) => process.stderr.write(note)));
  hooks.beforeStrategy?.();
  // Its own subscriptions' errors are reported in one line rather than crashing the process.
  reportUnhandledStreamErrors();
  const overrides = {
    params,
    ...(symbols === undefined ? {} : { symbols }),
    ...(period === undefined ? {} : { period }),
  };
  const strategy = await loadStrategy(args.strategy, overrides);
  const risk = args.risk === undefined ? undefined : await loadRiskConfig(args.risk);
  hooks.beforeData?.();
  const allData = await loadBacktestData(dataPath, {
    symbols: strategy.symbols,
    onBadRow,
    ...(hooks.signal === undefined ? {} : { signal: hooks.signal }),
  });
  noteRenamedFile(dataPath, allData);
  noteWeekendDayBars(allData);
  noteZeroVolumeBars(allData);
  const range = dateRangeOf(args.from, args.to, allData.series[0]!.symbol);
  const data = range === undefined ? allData : sliceData(allData, range.from, range.to);
  if (range !== undefined && data.series.every((series) => series.columns.length === 0))
    throw new InvalidInputError(`no bars from ${range.text.from ?? 'the start'} to ${range.text.to ?? 'the end'} in ${dataPath}`, '--from');
  if (data.skippedRows > 0) {
    const listed = data.problems.map((problem) => `\n  ${describeProblem(problem)}`).join('');
    process.stderr.write(
      `warning: skipped ${data.skippedRows} bad row${data.skippedRows === 1 ? '' : 's'}:${listed}${data.skippedRows > data.problems.length ? '\n  …' : ''}\n`,
    );
  }
  // The lot sizes, ticks and names of the securities file beside the data (JSON-able: workers receive them).
  const instruments = await readSecurities(await securitiesFileOf(dataPath));
  // Adjusted prices already contain the actions; applying them again would count them twice.
  const actions =
    adjust === 'none'
      ? await loadCorporateActions(
          dataPath,
          data.series.map((series) => series.symbol),
        )
      : [];
  return {
    venue: { ...venue, settings: { ...venue.settings, instruments } },
    cash,
    riskFreeRate,
    strategy,
    loadStrategyAfresh: () => loadStrategy(args.strategy, overrides, { afresh: true }),
    risk,
    data,
    allData,
    range,
    history:
      range === undefined || range.from === Number.NEGATIVE_INFINITY ? undefined : sliceData(allData, Number.NEGATIVE_INFINITY, range.from),
    dataPath,
    adjust,
    actions,
  };
}
