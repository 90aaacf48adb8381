// The flags of `trader run`, checked before anything starts: each error names its flag and says what is wrong.
import { dirname, basename, extname, join } from 'node:path';
import { InvalidInputError } from '../../domain/errors.js';
import { parseChoice } from '../../domain/order-types.js';
import type { BadRowPolicy } from '../../feeds/history/bad-data-error.js';
import { parseDuration } from '../../schedule/duration.js';
import { DEFAULT_JOURNAL_FILE } from '../../store/journal.js';
import { BAD_ROW_POLICIES, shortChoice, type ShortChoice } from '../backtest/flags.js';
import { PRICE_ADJUSTMENTS, type PriceAdjustment } from '../../domain/corporate-action.js';
import { dateFlag } from '../trading/flags.js';
import type { RunMode } from './mode.js';
import type { OpsArgs } from './ops-flags.js';

export interface RunArgs extends OpsArgs {
  readonly strategy: string;
  readonly paper?: boolean | undefined;
  readonly live?: boolean | undefined;
  readonly yes?: boolean | undefined;
  readonly symbols?: string | undefined;
  readonly period?: string | undefined;
  readonly param?: readonly (string | number)[] | undefined;
  readonly journal?: string | undefined;
  readonly risk?: string | undefined;
  readonly for?: string | undefined;
  readonly data?: string | undefined;
  readonly from?: string | undefined;
  readonly speed?: number | undefined;
  readonly cash?: string | undefined;
  readonly 'on-bad-row'?: string | undefined;
  readonly short?: boolean | undefined;
  readonly 'borrow-rate'?: string | number | undefined;
  readonly 'short-margin'?: string | undefined;
  readonly adjust?: string | undefined;
  readonly 'cancel-on-exit'?: boolean | undefined;
  readonly 'flatten-on-exit'?: boolean | undefined;
  readonly 'json-logs'?: boolean | undefined;
  readonly json?: boolean | undefined;
  readonly verbose?: boolean | undefined;
}

/** A market hour per second: a day of daily bars in about 6.5 s. */
export const DEFAULT_PAPER_SPEED = 3600;
export const DEFAULT_PAPER_JOURNAL = 'state/paper-journal.sqlite';
export const DEFAULT_PAPER_DATA = 'backtest-data';
export const DEFAULT_PAPER_CASH = '1000000';

export interface PaperSettings {
  readonly data: string;
  readonly from: string | undefined;
  readonly speed: number;
  readonly cash: string;
  readonly onBadRow: BadRowPolicy;
  /** Sells beyond the position open shorts (the simulator's venue setting shortSelling). */
  readonly shortSelling: boolean;
  /** Annual borrow fee on short value, charged per calendar day held (a fraction). */
  readonly borrowFeeRate: number;
  /** Margin factors of short positions; null: the symbol's own. */
  readonly shortMarginRatios: ShortChoice['shortMarginRatios'];
  /** What the data's prices are: none (dividends and splits beside the data are applied) or forward. */
  readonly adjust: PriceAdjustment;
  /** The simulated account kept next to the journal, so a restarted run resumes against the same account. */
  readonly stateFile: string;
}

export interface RunSettings {
  readonly journal: string;
  readonly paper: PaperSettings | undefined;
  /** Wall milliseconds until the run stops by itself. */
  readonly forMs: number | undefined;
  readonly symbols: readonly string[] | undefined;
}

const PAPER_ONLY = ['data', 'from', 'speed', 'cash', 'on-bad-row', 'short', 'borrow-rate', 'short-margin', 'adjust'] as const;

export function runSettings(args: RunArgs, mode: RunMode): RunSettings {
  if (mode.mode === 'live') {
    const given = PAPER_ONLY.filter((flag) => args[flag] !== undefined);
    if (given.length > 0)
      throw new InvalidInputError(
        `${given.map((flag) => `--${flag}`).join(', ')} only apply to paper runs (the simulator); a live run trades the real market`,
        `--${given[0]}`,
      );
  }
  const journal = args.journal ?? (mode.mode === 'live' ? DEFAULT_JOURNAL_FILE : DEFAULT_PAPER_JOURNAL);
  return {
    journal,
    paper: mode.mode === 'paper' ? paperSettings(args, journal) : undefined,
    forMs: args.for === undefined ? undefined : forFlag(args.for),
    symbols: args.symbols === undefined ? undefined : symbolList(args.symbols),
  };
}

function paperSettings(args: RunArgs, journal: string): PaperSettings {
  const speed = args.speed ?? DEFAULT_PAPER_SPEED;
  if (!Number.isFinite(speed) || !(speed > 0))
    throw new InvalidInputError(`--speed: must be a number greater than zero (got ${String(args.speed)})`, '--speed');
  const cash = (args.cash ?? DEFAULT_PAPER_CASH).trim();
  if (!/^\d+(\.\d+)?$/.test(cash) || Number(cash) <= 0)
    throw new InvalidInputError(`--cash: "${args.cash}" is not a positive amount`, '--cash');
  return {
    data: args.data ?? DEFAULT_PAPER_DATA,
    from: args.from === undefined ? undefined : dateFlag(args.from, '--from'),
    speed,
    cash,
    onBadRow: parseChoice(BAD_ROW_POLICIES, String(args['on-bad-row'] ?? 'fail'), '--on-bad-row'),
    ...shortChoice(args),
    adjust: parseChoice(PRICE_ADJUSTMENTS, String(args.adjust ?? 'none'), '--adjust'),
    stateFile: paperAccountFile(journal),
  };
}

/** `state/paper-journal.sqlite` → `state/paper-journal.account.sqlite`. */
export function paperAccountFile(journal: string): string {
  const extension = extname(journal);
  return join(dirname(journal), `${basename(journal, extension)}.account${extension === '' ? '.sqlite' : extension}`);
}

/** `state/journal.sqlite` → `state/journal.account-day.json`: the day's first readings of the journal's account. */
export function accountDayFile(journal: string): string {
  return join(dirname(journal), `${basename(journal, extname(journal))}.account-day.json`);
}

function forFlag(text: string): number {
  const ms = parseDuration(String(text));
  if (ms === undefined || ms <= 0)
    throw new InvalidInputError(`--for: "${text}" is not a duration (use a number and a unit: 90s, 30m, 2h, 1d)`, '--for');
  return ms;
}

function symbolList(text: string): string[] {
  const symbols = String(text)
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (symbols.length === 0) throw new InvalidInputError('--symbols: name at least one symbol, e.g. AAPL.US or 700.HK,9988.HK', '--symbols');
  return symbols;
}
