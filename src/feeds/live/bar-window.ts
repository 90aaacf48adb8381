// Which bar a market instant belongs to, and when that bar is complete. Intraday bars count from the start
// of the regular session they fall in (HK 60m: 9:30, 10:30, 11:30–12:00, 13:00 …) and otherwise from local
// midnight, kept within the gap between sessions (US 60m pre-market: … 8:00, 9:00–9:30); day bars start at
// local midnight and are complete at the close of the regular day; week, month, quarter and year bars end
// where the next one starts.
import { REGULAR_SESSIONS, timeZoneOf } from '../../domain/market-hours.js';
import { periodMinutes, type Period } from '../../domain/period.js';
import type { Market } from '../../domain/symbol.js';
import { fromLocal, toLocal, type LocalDateTime } from '../../domain/time-zone.js';

export interface BarWindow {
  /** Bar start, epoch ms (the Candle's `time`). */
  readonly start: number;
  /** The instant from which no tick of this bar can come any more (before any grace). */
  readonly end: number;
}

const MINUTES_PER_DAY = 24 * 60;

export function barWindow(instant: number, period: Period, market: Market): BarWindow {
  const zone = timeZoneOf(market);
  const local = toLocal(instant, zone);
  const at = (day: LocalDateTime, minuteOfDay: number): number =>
    fromLocal(
      { year: day.year, month: day.month, day: day.day, hour: Math.floor(minuteOfDay / 60), minute: minuteOfDay % 60, second: 0 },
      zone,
    );
  const minutes = periodMinutes(period);
  const sessions = REGULAR_SESSIONS[market].map((session) => ({ begin: hhmmToMinutes(session.begin), end: hhmmToMinutes(session.end) }));
  if (minutes !== undefined) {
    const minuteOfDay = local.hour * 60 + local.minute;
    const session = sessions.find((window) => minuteOfDay >= window.begin && minuteOfDay < window.end);
    if (session !== undefined) {
      const startMinute = session.begin + Math.floor((minuteOfDay - session.begin) / minutes) * minutes;
      return { start: at(local, startMinute), end: at(local, Math.min(startMinute + minutes, session.end)) };
    }
    // Outside the sessions (pre- and post-market, a lunch break): counted from midnight, within the gap
    // between sessions, so no such bar overlaps a session's (a 9:00 hour bar ends at the 9:30 open).
    const gapBegin = Math.max(0, ...sessions.filter((window) => window.end <= minuteOfDay).map((window) => window.end));
    const gapEnd = Math.min(MINUTES_PER_DAY, ...sessions.filter((window) => window.begin > minuteOfDay).map((window) => window.begin));
    const fromMidnight = Math.floor(minuteOfDay / minutes) * minutes;
    return { start: at(local, Math.max(gapBegin, fromMidnight)), end: at(local, Math.min(fromMidnight + minutes, gapEnd)) };
  }
  const dayStart = (year: number, month: number, day: number): number =>
    fromLocal({ year, month, day, hour: 0, minute: 0, second: 0 }, zone);
  switch (period) {
    case 'week': {
      const weekday = (new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay() + 6) % 7;
      return {
        start: dayStart(local.year, local.month, local.day - weekday),
        end: dayStart(local.year, local.month, local.day - weekday + 7),
      };
    }
    case 'month':
      return { start: dayStart(local.year, local.month, 1), end: dayStart(local.year, local.month + 1, 1) };
    case 'quarter': {
      const first = Math.floor((local.month - 1) / 3) * 3 + 1;
      return { start: dayStart(local.year, first, 1), end: dayStart(local.year, first + 3, 1) };
    }
    case 'year':
      return { start: dayStart(local.year, 1, 1), end: dayStart(local.year + 1, 1, 1) };
    default: {
      const lastClose = sessions.at(-1)!.end;
      const minuteOfDay = local.hour * 60 + local.minute;
      // A tick after the regular close (closing auction, odd data) still belongs to the day: end after it.
      return { start: dayStart(local.year, local.month, local.day), end: at(local, Math.max(lastClose, minuteOfDay + 1)) };
    }
  }
}

function hhmmToMinutes(hhmm: number): number {
  return Math.floor(hhmm / 100) * 60 + (hhmm % 100);
}
