// The flags of `trader backtest`, checked before any data is read: each error names the flag and says why.
import { Fixed } from '../../domain/fixed.js';
import type { Money } from '../../domain/money.js';
import { parseSymbol } from '../../domain/symbol.js';
import { InvalidInputError } from '../../domain/errors.js';
import { parseChoice } from '../../domain/order-types.js';
import { FEE_SETTINGS, FILL_MODELS, INTRABAR_PATHS } from '../../sim/venue/settings.js';
import type { Options } from 'yargs';
import { z } from 'zod';
import type { BacktestVenueSettings } from '../../backtest/engine.js';
import { PERIODS } from '../../domain/period.js';

export const SHORT_MARGIN_HELP =
  "With --short: margin factors of short positions as IM,MM,FM (initial, maintenance, forced; up to 10, IM ≥ MM ≥ FM), e.g. 1.5,1.3,1.2, or one factor for all three (default: the symbol's own factors, 1 in a cash account)";

export const BAD_ROW_POLICIES = ['fail', 'skip'] as const;
export { PRICE_ADJUSTMENTS as ADJUSTMENTS } from '../../domain/corporate-action.js';

/** The options every command over candle history shares with `trader backtest` (data, costs, risk, cash). */
export const BACKTEST_OPTIONS = {
  data: {
    type: 'string',
    describe:
      "Candle file or folder of SYMBOL.csv / SYMBOL.parquet files (default: the project's data folder, see trader.json; else the bundled sample)",
  },
  symbols: { type: 'string', describe: "Comma-separated symbols (default: the file's name, or every candle file of the folder)" },
  from: {
    type: 'string',
    describe: "First date of the run (YYYY-MM-DD, market-local); earlier bars are the strategy's warm-up history, not traded",
  },
  to: { type: 'string', describe: 'Last date of the run (YYYY-MM-DD, market-local, included)' },
  period: {
    type: 'string',
    describe: `Bar period the strategy sees (${PERIODS.join(', ')}); coarser than the data is built from it`,
  },
  cash: { type: 'string', default: '1000000', describe: "Starting cash in the data's currency" },
  commission: { type: 'string', describe: 'Commission as a fraction of traded value per fill, e.g. 0.001' },
  slippage: { type: 'string', describe: 'Slippage in basis points against market-style fills (default 0)' },
  'max-participation': {
    type: 'string',
    describe:
      "Largest share of a bar's volume its fills may take, all orders together, e.g. 0.1 for 10 % (more than 0, at most 1; default 1); the rest of an order keeps working",
  },
  fees: {
    type: 'string',
    describe: `Market fee schedule instead of --commission: ${FEE_SETTINGS.filter((fee) => fee !== 'none').join(', ')} (none: no fees, the default)`,
  },
  fill: {
    type: 'string',
    default: 'next-open',
    describe: `Market order fill: ${FILL_MODELS.join(" (next bar's open) | ")} (the deciding bar's close)`,
  },
  intrabar: {
    type: 'string',
    default: 'nearest-first',
    describe: `Path inside a bar for stops and limits: ${INTRABAR_PATHS.join(', ')}`,
  },
  short: { type: 'boolean', describe: 'Allow short selling: a sell while flat opens a short, margined at the initial margin factor' },
  'borrow-rate': { type: 'string', describe: 'With --short: annual borrow fee on short value, charged per day held, e.g. 0.03' },
  'short-margin': { type: 'string', describe: SHORT_MARGIN_HELP },
  risk: { type: 'string', describe: 'Risk config JSON (the same file as `trader run --risk`)' },
  'risk-free-rate': {
    type: 'string',
    describe: 'Annual risk-free rate for Sharpe and Sortino, as a fraction, e.g. 0.02 (default 0)',
  },
  'on-bad-row': {
    type: 'string',
    default: 'fail',
    describe: 'Bad rows of the candle files (CSV or Parquet): fail (list the first 10) or skip them',
  },
  adjust: {
    type: 'string',
    default: 'none',
    describe:
      'What the prices are: none (unadjusted; dividends and splits from Dividends/Stock Splits columns or actions.csv are applied on their ex-dates) or forward (already adjusted; actions ignored)',
  },
} as const satisfies Record<string, Options>;

export interface BacktestArgs {
  readonly strategy: string;
  /** Default: the project's data (trader.json), else the sample history shipped with the package. */
  readonly data?: string;
  readonly symbols?: string;
  /** First and last market-local dates of the run (the data before --from warms the strategies up). */
  readonly from?: string;
  readonly to?: string;
  readonly period?: string;
  readonly param?: readonly string[];
  readonly cash: string;
  readonly commission?: number | string;
  readonly slippage?: number | string;
  /** Largest share of a bar's volume its fills may take, in (0, 1]. */
  readonly 'max-participation'?: number | string;
  readonly fees?: string;
  readonly fill: string;
  readonly intrabar: string;
  /** Allow sells beyond the position (short selling, margined; see --borrow-rate). */
  readonly short?: boolean;
  readonly 'borrow-rate'?: number | string;
  /** IM,MM,FM margin factors of short positions (or one factor for all three). */
  readonly 'short-margin'?: string;
  /** What the data's prices are: none (unadjusted: apply dividends and splits) or forward (already adjusted). */
  readonly adjust?: string;
  readonly risk?: string;
  readonly 'risk-free-rate'?: number | string;
  readonly 'on-bad-row': string;
  readonly json?: string | boolean;
  readonly report?: string;
  readonly quiet?: boolean;
  readonly timings?: boolean;
  readonly verbose?: boolean;
}

export interface VenueChoice {
  readonly settings: BacktestVenueSettings;
  /** What the run's JSON `settings` echo. */
  readonly echo: Readonly<Record<string, string | number | null>>;
}

export function cashFlag(text: string): Fixed {
  const cash = Fixed.of(String(text), '--cash');
  if (!cash.isPositive()) throw new InvalidInputError(`--cash: must be greater than zero (got ${text})`, '--cash');
  // The equity curve and the figures read from it are floats: exact to the cent up to 2^53 cents, no further.
  if (cash.compare(MAX_CASH) > 0)
    throw new InvalidInputError(
      `--cash: at most ${MAX_CASH.toLocaleString('en-US')} (the equity curve and its figures are kept to the cent up to there), got ${text}`,
      '--cash',
    );
  if (cash.compare(0.01) < 0) throw new InvalidInputError(`--cash: at least 0.01, got ${text}`, '--cash');
  return cash;
}

/** The most cash a run takes: 2^53 cents. */
const MAX_CASH = Math.floor(2 ** 53 / 100);

/**
 * A run may end above the --cash limit (its positions gained): the metrics' float then misses cents of the
 * final equity. The note says so and gives the exact figure; undefined when the float holds it to the cent.
 */
export function finalEquityNote(finalEquity: Money | undefined): string | undefined {
  if (finalEquity === undefined || finalEquity.abs().compare(MAX_CASH) <= 0) return undefined;
  return (
    `note: the final equity, ${finalEquity.toFixed()} ${finalEquity.currency}, is beyond ${MAX_CASH.toLocaleString('en-US')}, ` +
    `the most the equity curve and the metrics (floats) keep to the cent: metrics.finalEquity reads ${finalEquity.toNumber()}; ` +
    'the trades and open positions are exact (their pnl added to the initial cash is the final equity)'
  );
}

/** --fill, --intrabar, --slippage, --commission and --fees as venue settings. */
export function venueChoice(args: BacktestArgs): VenueChoice {
  const fillModel = parseChoice(FILL_MODELS, String(args.fill), '--fill');
  const intrabarPath = parseChoice(INTRABAR_PATHS, String(args.intrabar), '--intrabar');
  // Below 100 % (a sell at 10,000 bps would fill at 0), in steps of at most a millionth of a basis point.
  const slippageBps = numberFlag(args.slippage ?? 0, '--slippage', 0, 10_000, 'basis points', 6, true);
  if (args.commission !== undefined && args.fees !== undefined) {
    throw new InvalidInputError('give --commission RATE or --fees SCHEDULE, not both', '--commission');
  }
  const commissionRate =
    args.commission === undefined
      ? undefined
      : numberFlag(args.commission, '--commission', 0, 1, 'a fraction of traded value, e.g. 0.001', 12);
  const fees =
    args.fees === undefined
      ? commissionRate === undefined
        ? 'none'
        : { commissionRate }
      : parseChoice(FEE_SETTINGS, String(args.fees), '--fees');
  const { shortSelling, borrowFeeRate, shortMarginRatios } = shortChoice(args);
  const volumeParticipation = participationFlag(args['max-participation'] ?? 1);
  return {
    settings: { fillModel, intrabarPath, slippageBps, volumeParticipation, fees, shortSelling, borrowFeeRate, shortMarginRatios },
    echo: {
      short: shortSelling ? 'on' : 'off',
      borrowRate: borrowFeeRate,
      shortMargin: shortMarginRatios === null ? null : `${shortMarginRatios.im},${shortMarginRatios.mm},${shortMarginRatios.fm}`,
      fill: fillModel,
      intrabar: intrabarPath,
      slippageBps,
      maxParticipation: volumeParticipation,
      commission: commissionRate ?? null,
      fees: typeof fees === 'string' ? fees : 'commission',
    },
  };
}

export interface ShortChoice {
  readonly shortSelling: boolean;
  readonly borrowFeeRate: number;
  /** Factors as decimal text; null: shorts use the symbol's own. */
  readonly shortMarginRatios: { readonly im: string; readonly mm: string; readonly fm: string } | null;
}

export interface ShortArgs {
  readonly short?: boolean | undefined;
  readonly 'borrow-rate'?: number | string | undefined;
  readonly 'short-margin'?: string | undefined;
}

/** --short, --borrow-rate and --short-margin as venue settings (backtests, paper runs and `trader sim` check them alike). */
export function shortChoice(args: ShortArgs): ShortChoice {
  const shortSelling = args.short === true;
  const borrowFeeRate = numberFlag(args['borrow-rate'] ?? 0, '--borrow-rate', 0, 1, 'an annual rate as a fraction, e.g. 0.03');
  if (!shortSelling && args['borrow-rate'] !== undefined) throw new InvalidInputError('--borrow-rate: only with --short', '--borrow-rate');
  if (!shortSelling && args['short-margin'] !== undefined)
    throw new InvalidInputError('--short-margin: only with --short', '--short-margin');
  const margin = args['short-margin'];
  return { shortSelling, borrowFeeRate, shortMarginRatios: margin === undefined ? null : shortMarginFlag(String(margin)) };
}

/** "1.5,1.3,1.2" (IM,MM,FM) or "1.5" (all three). */
function shortMarginFlag(text: string): NonNullable<ShortChoice['shortMarginRatios']> {
  const parts = text.split(',').map((part) => part.trim());
  const bad = (why: string): InvalidInputError =>
    new InvalidInputError(`--short-margin: ${why} (give IM,MM,FM, e.g. 1.5,1.3,1.2, or one factor), got "${text}"`, '--short-margin');
  if (parts.length !== 1 && parts.length !== 3) throw bad('expected one or three factors');
  const values = parts.map((part) => {
    const value = /^\d+(\.\d+)?$/.test(part) ? Number(part) : Number.NaN;
    if (!(value > 0 && value <= 10)) throw bad(`"${part}" is not a factor in (0, 10]`);
    return value;
  });
  const [im = 0, mm = im, fm = mm] = values;
  if (!(im >= mm && mm >= fm)) throw bad('the factors must satisfy IM ≥ MM ≥ FM');
  const [imText = '', mmText = imText, fmText = mmText] = parts;
  return { im: imText, mm: mmText, fm: fmText };
}

/** The venue's bounds of its volumeParticipation setting (sim/venue/settings.ts): a share of the volume. */
const PARTICIPATION = z.coerce.number().gt(0).max(1);

/** --max-participation: the share of each bar's volume the venue's fills may take. */
function participationFlag(value: number | string): number {
  const parsed = PARTICIPATION.safeParse(value);
  if (!parsed.success)
    throw new InvalidInputError(
      `--max-participation: expected a share of a bar's volume, more than 0 and at most 1 (0.1 = 10 %), got ${String(value)}`,
      '--max-participation',
    );
  return parsed.data;
}

/** --risk-free-rate: the annual rate Sharpe and Sortino are measured against, as a fraction (default 0). */
export function riskFreeRateFlag(args: BacktestArgs): number {
  return numberFlag(args['risk-free-rate'] ?? 0, '--risk-free-rate', 0, 1, 'an annual rate as a fraction, e.g. 0.02');
}

/** "A,B" → ["A", "B"]; undefined when not given. */
export function symbolsFlag(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  const symbols = String(text)
    .split(',')
    .map((symbol) => symbol.trim())
    .filter((symbol) => symbol !== '');
  if (symbols.length === 0) throw new InvalidInputError('--symbols: name at least one symbol, e.g. --symbols 700.HK,AAPL.US', '--symbols');
  // Checked here, so a bad one is blamed on the flag rather than on the strategy file it is handed to.
  for (const symbol of symbols) {
    try {
      parseSymbol(symbol);
    } catch (error) {
      throw new InvalidInputError(`--symbols: ${(error as Error).message}`, '--symbols');
    }
  }
  return symbols;
}

/** Where --json goes: "-" (or the bare flag) is stdout; undefined when not asked for. */
export function jsonTarget(value: string | boolean | undefined): string | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true || value === '' || value === '-') return '-';
  return String(value);
}

/**
 * A number in [min, max] with at most `places` decimal places when given (finer rates would need more places
 * than the fixed-point amounts they multiply can keep).
 */
/** `max` is included unless `belowMax` (slippage of 10,000 bp would sell at 0). */
function numberFlag(
  value: number | string,
  flag: string,
  min: number,
  max: number,
  unit: string,
  places?: number,
  belowMax = false,
): number {
  const number = typeof value === 'number' ? value : String(value).trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(number) || number < min || number > max || (belowMax && number === max))
    throw new InvalidInputError(
      `${flag}: expected ${unit} ${belowMax ? `from ${min} to below ${max}` : `between ${min} and ${max}`}, got ${String(value)}`,
      flag,
    );
  if (places !== undefined && number !== 0 && !(number >= 10 ** -places && Fixed.of(number, flag).precision <= places))
    throw new InvalidInputError(`${flag}: at most ${places} decimal places, got ${String(value)}`, flag);
  return number;
}
