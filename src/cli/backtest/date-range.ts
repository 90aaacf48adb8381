// --from and --to: the part of the data a run covers, as market-local dates (both included). The bars before
// --from are the strategies' warm-up history, not part of the run.
import type { BacktestData } from '../../backtest/data.js';
import { DAY_MS, daysFromCivil, daysInMonth } from '../../domain/civil-date.js';
import { InvalidInputError } from '../../domain/errors.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { marketOf, type SecuritySymbol } from '../../domain/symbol.js';
import { ZoneRules } from '../../domain/time-zone.js';

export interface DateRange {
  /** First instant of the run (epoch ms), or −∞. */
  readonly from: number;
  /** First instant after the run, or +∞. */
  readonly to: number;
  /** As given, for the result's settings. */
  readonly text: { readonly from: string | null; readonly to: string | null };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The range of --from/--to in the zone of `symbol`'s market; undefined when neither is given. */
export function dateRangeOf(from: string | undefined, to: string | undefined, symbol: SecuritySymbol): DateRange | undefined {
  if (from === undefined && to === undefined) return undefined;
  const zone = ZoneRules.of(timeZoneOf(marketOf(symbol)));
  const start = from === undefined ? Number.NEGATIVE_INFINITY : zone.instantOf(dayOf(from, '--from'));
  const end = to === undefined ? Number.POSITIVE_INFINITY : zone.instantOf(dayOf(to, '--to') + DAY_MS);
  if (!(start < end)) throw new InvalidInputError(`--from ${from} is after --to ${to}`, '--from');
  return { from: start, to: end, text: { from: from ?? null, to: to ?? null } };
}

/** Midnight of a YYYY-MM-DD date, as epoch ms of the date read as UTC. */
function dayOf(text: string, flag: string): number {
  const match = DATE.exec(String(text).trim());
  const [year, month, day] = match === null ? [Number.NaN, Number.NaN, Number.NaN] : [Number(match[1]), Number(match[2]), Number(match[3])];
  // Checked field by field: Date.UTC would roll month 13 into the next year and read years 0–99 as 19xx.
  if (match === null || year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
    throw new InvalidInputError(`${flag}: a date like 2015-01-31, got ${text}`, flag);
  return daysFromCivil(year, month, day) * DAY_MS;
}

/** The range with its open ends closed at the data's first and last bars (plain numbers cross to workers as JSON). */
export function finiteRange(range: DateRange, data: BacktestData): { readonly from: number; readonly to: number } {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const { columns } of data.series) {
    if (columns.length === 0) continue;
    first = Math.min(first, columns.time[0]!);
    last = Math.max(last, columns.time[columns.length - 1]!);
  }
  return { from: Math.max(range.from, first), to: Math.min(range.to, last + 1) };
}
