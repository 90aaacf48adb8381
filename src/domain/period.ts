// Candle periods: intraday minutes plus calendar periods, named the way users type them.
import { InvalidInputError } from './errors.js';

export const PERIODS = [
  '1m',
  '2m',
  '3m',
  '5m',
  '10m',
  '15m',
  '20m',
  '30m',
  '45m',
  '60m',
  '120m',
  '180m',
  '240m',
  'day',
  'week',
  'month',
  'quarter',
  'year',
] as const;
export type Period = (typeof PERIODS)[number];

const ALIASES: Readonly<Record<string, Period>> = {
  '1h': '60m',
  '2h': '120m',
  '3h': '180m',
  '4h': '240m',
  '1d': 'day',
  d: 'day',
  '1w': 'week',
  w: 'week',
};

export function parsePeriod(text: string): Period {
  const lower = text.trim().toLowerCase();
  const period = (PERIODS as readonly string[]).includes(lower) ? (lower as Period) : ALIASES[lower];
  if (period === undefined) throw new InvalidInputError(`period "${text}" is not one of ${PERIODS.join(', ')}`, 'period');
  return period;
}

/** Minutes per bar for intraday periods; undefined for calendar periods (day and longer). */
export function periodMinutes(period: Period): number | undefined {
  return period.endsWith('m') ? Number.parseInt(period, 10) : undefined;
}

export function isIntraday(period: Period): boolean {
  return periodMinutes(period) !== undefined;
}
