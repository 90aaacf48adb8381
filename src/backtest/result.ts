// The backtest's inputs to metrics and reports (what the engine hands over) and the JSON result's shape.
import { z } from 'zod';
import type { Money } from '../domain/money.js';
import type { Fill } from '../domain/fill.js';
import type { OrderIntent } from '../domain/intent.js';
import { PERIODS, type Period } from '../domain/period.js';
import type { SecuritySymbol } from '../domain/symbol.js';
import type { StrategyFailure } from '../strategy/failure.js';
import type { CarryNotice } from '../sim/venue/carry-notice.js';
import type { BarHistory } from './bar-history.js';

/**
 * The account's equity over the run, one point per distinct bar time (several symbols' bars that share a
 * time make one point). Typed arrays are welcome: see createEquityRecorder.
 */
export interface EquityCurve {
  /** Bar start (epoch ms, the Candle's `time`) of each point, strictly increasing. */
  readonly times: ArrayLike<number>;
  /** Cash + positions marked at the bar's close, in the account currency, after that bar was processed. */
  readonly equity: ArrayLike<number>;
  /** Non-zero/true when any position was open at that bar's close (for `exposure`). */
  readonly exposed: ArrayLike<number | boolean>;
}

/** One denied intent, as the run saw it. */
export interface DenialEntry {
  /** Virtual time of the decision, epoch ms. */
  readonly time: number;
  readonly strategy: string;
  readonly code: string;
  readonly message: string;
  readonly intent: OrderIntent;
  readonly figures: Readonly<Record<string, string>>;
}

/** What the strategies asked for and what became of it, beyond the fills. */
export interface RunActivity {
  readonly intents: number;
  readonly orders: number;
  readonly denialsByCode: Readonly<Record<string, number>>;
  /** The first denials, in order (at most DENIALS_LISTED: a strategy denied on every bar would fill memory). */
  readonly denials: readonly DenialEntry[];
}

/** A strategy that stopped with an error: which, where in its file, and on which bar. */
export interface RunFailure {
  readonly strategy: string;
  readonly source: string;
  readonly failure: StrategyFailure;
}

/** How many denials the JSON lists one by one (all are counted by code). */
export const DENIALS_LISTED = 1000;

/** Everything one finished run produced; the one input of buildResult, formatSummary and renderReport. */
export interface BacktestRecord {
  readonly strategy: string;
  /** The data's bar period: equity is marked, and bars are counted, per data bar. */
  readonly period: Period;
  /** The period the strategy saw, when it is coarser than the data's (built from it). */
  readonly strategyPeriod?: Period;
  /** Account currency, e.g. "USD". */
  readonly currency: string;
  readonly initialCash: Money;
  /** Closed bars per symbol, in time order; the map's order is the reports' symbol order. */
  readonly bars: ReadonlyMap<SecuritySymbol, BarHistory>;
  readonly equity: EquityCurve;
  /**
   * Cash plus the positions at their last closes after the last bar, exact (the curve's points are floats,
   * marked bar by bar); absent when the run stopped before its last bar.
   */
  readonly finalEquity?: Money;
  /** Every fill of the run in execution order (commission included, as charged). */
  readonly fills: readonly Fill[];
  /** Dividends, splits and borrow fees the venue booked on positions, in order (none: no carry). */
  readonly carry?: readonly CarryNotice[];
  /** Zone for run-level dates (start, end, drawdown); default: the first symbol's market zone. */
  readonly timeZone?: string;
  /** Run settings echoed into the JSON as given (fill model, commission rate, strategy params …). */
  readonly settings?: Readonly<Record<string, string | number | boolean | null>>;
  /** Intents, orders and denials. */
  readonly activity: RunActivity;
  /** Strategies that failed; the run is then marked failed. */
  readonly failures?: readonly RunFailure[];
  /** The tag of each tagged order, by venue order id (from the intents that placed them). */
  readonly orderTags?: { get(orderId: string): string | undefined };
}

/** Knobs of the statistics; both have defaults (see computeMetrics). */
export interface MetricsOptions {
  /** Annual risk-free rate as a fraction (0.02 = 2 %); default 0. */
  readonly riskFreeRate?: number;
  /** Overrides the bars-per-year of annualisation (see periodsPerYear). */
  readonly periodsPerYear?: number;
}

const decimalText = z.string().regex(/^-?\d+(\.\d+)?$/, 'a plain decimal string');
/** ISO 8601 with the zone's offset, e.g. "2024-01-02T00:00:00+08:00" (market-local wall time). */
const timeText = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?(Z|[+-]\d{2}:\d{2})$/, 'an ISO 8601 time with offset');
const nullableNumber = z.number().nullable();
const count = z.number().int().nonnegative();

/**
 * Statistics of the run. All are JSON numbers (fractions, not percents: 0.12 = 12 %); null means
 * "undefined for this run", never zero:
 * - winRate, averageTrade, bestTrade, worstTrade, averageBarsHeld: null without closed trades;
 * - sharpe, sortino: null with fewer than 2 returns, or when their denominator is 0 (flat equity, or no
 *   losing bar for sortino);
 * - cagr: null when first and last bar share a time (single bar) or the span is too short for a finite
 *   figure; −1 when equity ended at or below zero;
 * - profitFactor: null when there is no losing trade (gross loss 0 would make it ∞ or 0/0).
 * Money figures here are numbers in the account currency; the exact values are in `fills` and `trades`.
 * sharpe and sortino are annualised from per-bar returns (the first bar's return is over the initial cash)
 * with `periodsPerYear` bars a year: 252 for daily bars, 52 weekly, 12 monthly, 4 quarterly, 1 yearly, and
 * for intraday bars 252 × the average bars per trading day (a date of the run's zone) seen in the data.
 * cagr uses calendar time between the first and the last bar (365.25-day years).
 */
export const metricsSchema = z.strictObject({
  /** Data bars processed, all symbols added up. */
  bars: count,
  /**
   * Distinct bar times (several symbols' bars at one time are one): the points of the equity curve, and the
   * unit of maxDrawdownBars, exposure and the annualisation. Equal to `bars` with one symbol.
   */
  barTimes: count,
  fills: count,
  closedTrades: count,
  winningTrades: count,
  losingTrades: count,
  winRate: nullableNumber,
  finalEquity: z.number(),
  totalReturn: z.number(),
  cagr: nullableNumber,
  sharpe: nullableNumber,
  sortino: nullableNumber,
  /** Largest peak-to-trough fall of equity as a fraction of the peak (0.25 = −25 %); 0 without one. */
  maxDrawdown: z.number().nonnegative(),
  maxDrawdownPeak: timeText.nullable(),
  maxDrawdownTrough: timeText.nullable(),
  /** First bar back at the peak's equity; null when it never recovered (or there was no drawdown). */
  maxDrawdownRecovery: timeText.nullable(),
  /** Bar times (see barTimes) from the peak to the recovery, or to the last one when it never recovered. */
  maxDrawdownBars: count,
  profitFactor: nullableNumber,
  grossProfit: z.number(),
  grossLoss: z.number(),
  /** Fraction of bar times (equity points) with an open position. */
  exposure: z.number().min(0).max(1),
  averageTrade: nullableNumber,
  bestTrade: nullableNumber,
  worstTrade: nullableNumber,
  averageBarsHeld: nullableNumber,
  totalCommission: z.number(),
  /** The annualisation used by sharpe and sortino. */
  periodsPerYear: z.number().positive(),
  riskFreeRate: z.number(),
});

export const fillRecordSchema = z.strictObject({
  fillId: z.string(),
  orderId: z.string(),
  symbol: z.string(),
  side: z.enum(['Buy', 'Sell']),
  quantity: decimalText,
  price: decimalText,
  commission: decimalText,
  time: timeText,
  /** The tag of the intent that placed the order (e.g. 'stop-loss'); null when it had none. */
  tag: z.string().nullable(),
});

/**
 * One FIFO round trip: an entry lot (or part of it) closed by one exit fill, or by a split's cash in lieu
 * (exitTag "cash-in-lieu"; see pairTrades). Quantity and entryPrice are in post-split shares.
 */
export const tradeRecordSchema = z.strictObject({
  symbol: z.string(),
  side: z.enum(['Long', 'Short']),
  quantity: decimalText,
  entryTime: timeText,
  entryPrice: decimalText,
  exitTime: timeText,
  exitPrice: decimalText,
  /** Entry and exit commissions attributed to this trade (pro rata by quantity). */
  commission: decimalText,
  /** Dividends paid on it while open (negative: charged to a short), pro rata by quantity. */
  dividends: decimalText,
  /** Borrow fees a short paid on it while open, pro rata by quantity. */
  borrowFees: decimalText,
  /** (exit − entry) × quantity (negated for shorts) − commission + dividends − borrowFees. */
  pnl: decimalText,
  /** pnl / entry value (entryPrice × quantity before any split). */
  return: z.number(),
  /** Bars of the symbol from the entry fill's bar to the exit fill's bar. */
  barsHeld: count,
  /** Tags of the entry's and the exit's intents (a stop-loss exit says 'stop-loss'); null when untagged. */
  entryTag: z.string().nullable(),
  exitTag: z.string().nullable(),
});

/** A position still open after the last bar, valued at that symbol's last close. */
export const openPositionSchema = z.strictObject({
  symbol: z.string(),
  side: z.enum(['Long', 'Short']),
  quantity: decimalText,
  averagePrice: decimalText,
  markPrice: decimalText,
  /** Dividends paid on the open quantity so far (negative: charged to a short). */
  dividends: decimalText,
  /** Borrow fees paid on the open quantity so far. */
  borrowFees: decimalText,
  /**
   * mark × quantity − the entry value (negated for shorts) − the entry commissions + dividends − borrowFees,
   * so Σ trades.pnl + Σ unrealizedPnl = finalEquity − initialCash exactly.
   */
  unrealizedPnl: decimalText,
});

/** Where a failed strategy threw: its own file's line (from the stack), and the bar it was handling. */
export const failureRecordSchema = z.strictObject({
  strategy: z.string(),
  source: z.string(),
  error: z.string(),
  location: z.strictObject({ file: z.string(), line: z.number().int(), column: z.number().int() }).nullable(),
  bar: z
    .strictObject({
      symbol: z.string(),
      period: z.enum(PERIODS),
      /** The bar's start, market-local. */
      time: timeText,
      /** 0-based position among that stream's bars the strategy was handed. */
      index: count,
    })
    .nullable(),
});

export const denialRecordSchema = z.strictObject({
  time: timeText,
  strategy: z.string(),
  code: z.string(),
  message: z.string(),
  /** What was asked for: order (symbol, side, quantity), close (symbol), target (symbol, quantity) or cancel. */
  intent: z.strictObject({
    kind: z.enum(['order', 'close', 'target', 'cancel']),
    symbol: z.string().nullable(),
    side: z.enum(['Buy', 'Sell']).nullable(),
    quantity: z.string().nullable(),
  }),
  /** The numbers behind the decision, as decimal strings. */
  figures: z.record(z.string(), z.string()),
});

/**
 * The `--json` document. `version` changes only when a field changes meaning or disappears. Metrics are
 * JSON numbers; quantities, prices and money in `fills`, `trades` and `openPositions` are exact decimal
 * strings (pro-rata commission shares and average prices rounded to 10 places). Times are market-local
 * ISO 8601 with offset: per symbol's market for fills and trades, `timeZone` for run-level times.
 */
export const backtestResultSchema = z.strictObject({
  version: z.literal(1),
  /** "failed" when a strategy threw or errored its stream (see failures); the run stops once every strategy has. */
  status: z.enum(['completed', 'failed']),
  strategy: z.string(),
  symbols: z.array(z.string()),
  /** The bar period the strategy saw. */
  period: z.enum(PERIODS),
  /** The data's bar period (equity, bars and drawdown are counted in these); the same as period unless coarser bars were built. */
  dataPeriod: z.enum(PERIODS),
  currency: z.string(),
  initialCash: decimalText,
  timeZone: z.string(),
  /** First and last bar times; null when there were no bars. */
  start: timeText.nullable(),
  end: timeText.nullable(),
  settings: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  /** Decimal places of each symbol's prices in the data (how the summary and the report print them). */
  pricePlaces: z.record(z.string(), count),
  failures: z.array(failureRecordSchema),
  metrics: metricsSchema,
  /** Intents the strategies emitted, orders placed, fills, and intents denied (risk checks, venue refusals). */
  counts: z.strictObject({ intents: count, orders: count, fills: count, denials: count }),
  denialsByCode: z.record(z.string(), count),
  /** The first 1,000 denials, in order (denialsByCode counts them all). */
  denials: z.array(denialRecordSchema),
  fills: z.array(fillRecordSchema),
  trades: z.array(tradeRecordSchema),
  openPositions: z.array(openPositionSchema),
});

export type Metrics = z.infer<typeof metricsSchema>;
export type FillRecord = z.infer<typeof fillRecordSchema>;
export type TradeRecord = z.infer<typeof tradeRecordSchema>;
export type OpenPositionRecord = z.infer<typeof openPositionSchema>;
export type FailureRecord = z.infer<typeof failureRecordSchema>;
export type DenialRecord = z.infer<typeof denialRecordSchema>;
export type BacktestResult = z.infer<typeof backtestResultSchema>;
/** What the summary and the report read of a result: all of it but the rows of its fills. */
export type ResultView = Omit<BacktestResult, 'fills'>;
