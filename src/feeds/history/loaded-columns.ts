// What reading one candle file (CSV or Parquet) takes and gives, and how its period is told from its times.
import { DAY_MS } from '../../domain/civil-date.js';
import { InvalidInputError } from '../../domain/errors.js';
import { isIntraday, PERIODS, periodMinutes, type Period } from '../../domain/period.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import type { BadRowPolicy, DataProblem } from './bad-data-error.js';
import type { CandleColumns, ColumnBuilder } from './candle-columns.js';

export interface CandleFileOptions {
  readonly symbol: SecuritySymbol;
  /** File name (or other label) used in problem reports. */
  readonly source: string;
  /** Zone of times without an offset (the market's zone). */
  readonly timeZone: string;
  /** Inferred from the times when omitted: date-only → day, else the smallest bar spacing. */
  readonly period?: Period;
  readonly onBadRow?: BadRowPolicy;
  /** Problems listed in a failure; more are counted. */
  readonly maxReported?: number;
}

export interface LoadedColumns {
  readonly columns: CandleColumns;
  /** Rows dropped under the skip policy (the first `maxReported` are listed). */
  readonly problems: readonly DataProblem[];
  readonly skippedRows: number;
}

/** Date-only rows are daily bars; else the period of the smallest spacing of the first 2,000 bars. */
export function inferPeriod(columns: ColumnBuilder, allDateOnly: boolean, source: string): Period {
  if (columns.length === 0 || allDateOnly) return 'day';
  let smallest = Number.POSITIVE_INFINITY;
  for (let index = 1; index < Math.min(columns.length, 2000); index += 1) {
    const gap = columns.timeAt(index) - columns.timeAt(index - 1);
    if (gap > 0 && gap < smallest) smallest = gap;
  }
  if (!Number.isFinite(smallest) || smallest >= DAY_MS) return 'day';
  const minutes = smallest / 60_000;
  const period = [...PERIODS].reverse().find((candidate) => isIntraday(candidate) && periodMinutes(candidate)! <= minutes);
  if (period === undefined)
    throw new InvalidInputError(`${source}: bars ${minutes} minutes apart match no period; pass --period`, 'period');
  return period;
}
