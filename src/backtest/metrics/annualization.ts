// How many bars make a year (for Sharpe and Sortino) and how long a run lasted (for CAGR).
import type { Period } from '../../domain/period.js';
import { ZoneRules } from '../../domain/time-zone.js';

const TRADING_DAYS = 252;
const DAY_MS = 86_400_000;
const YEAR_MS = 365.25 * DAY_MS;

const CALENDAR_PERIODS: Readonly<Partial<Record<Period, number>>> = { day: TRADING_DAYS, week: 52, month: 12, quarter: 4, year: 1 };

/**
 * Bars per year: 252 for daily bars, 52 weekly, 12 monthly, 4 quarterly, 1 yearly. Intraday bars are
 * counted from the data: 252 × the average number of bars per trading day, a trading day being a date of
 * `timeZone` (the market's) with at least one bar. That counts the bars a session really has (6.5 h of US
 * minute bars = 390) instead of assuming 24 h. Local dates, not UTC ones: US extended-hours bars run to
 * 20:00 New York, past UTC midnight from November to March, which would count each session as two days.
 */
export function periodsPerYear(period: Period, times: ArrayLike<number>, timeZone: string): number {
  const fixed = CALENDAR_PERIODS[period];
  if (fixed !== undefined) return fixed;
  if (times.length === 0) return TRADING_DAYS;
  const zone = ZoneRules.of(timeZone);
  let days = 0;
  let lastDay = Number.NaN;
  for (let index = 0; index < times.length; index += 1) {
    const time = times[index]!;
    const day = Math.floor((time + zone.offsetAt(time)) / DAY_MS);
    if (day !== lastDay) {
      days += 1;
      lastDay = day;
    }
  }
  return TRADING_DAYS * (times.length / days);
}

/** Calendar years between the first and the last bar (365.25-day years). */
export function yearsBetween(firstMs: number, lastMs: number): number {
  return (lastMs - firstMs) / YEAR_MS;
}

/**
 * Compound annual growth rate over the calendar span of the bars. Null when the span is zero (a single
 * bar) or too short for a finite figure; −1 when the account was wiped out.
 */
export function compoundAnnualGrowth(initialEquity: number, finalEquity: number, years: number): number | null {
  if (!(years > 0) || !(initialEquity > 0)) return null;
  if (finalEquity <= 0) return -1;
  const rate = (finalEquity / initialEquity) ** (1 / years) - 1;
  return Number.isFinite(rate) ? rate : null;
}
