// Which candle a trade at an instant belongs to, as the official SDK decides it (longportapp/openapi
// rust/crates/candlesticks: markets.rs, market.rs, find_session.rs): each market's sessions per trade session,
// with the grace after a close (HK's closing auction lands in the 16:00 bar), minute bars counted from the
// session's start, calendar bars from local midnight. Outside every session a trade makes no candle.
import { timeZoneOf } from '../../domain/market-hours.js';
import { isIntraday, periodMinutes, type Period } from '../../domain/period.js';
import type { TradeSession } from '../../domain/quote.js';
import type { Market } from '../../domain/symbol.js';
import { fromLocal, toLocal } from '../../domain/time-zone.js';

interface CandleSession {
  /** Seconds after local midnight. */
  readonly start: number;
  readonly end: number;
  /** Whether `end` itself still belongs to the session. */
  readonly inclusive?: boolean;
  /** Seconds after `end` during which trades still count as at `end`. */
  readonly timeout?: number;
}

const at = (hour: number, minute: number, second = 0): number => hour * 3600 + minute * 60 + second;

type SessionTable = Partial<Record<TradeSession, readonly CandleSession[]>>;

const US_OVERNIGHT: readonly CandleSession[] = [
  { start: at(0, 0), end: at(4, 0) },
  { start: at(20, 0), end: at(23, 59, 59), inclusive: true },
];

const TABLES: Readonly<Record<Market, { readonly full: SessionTable; readonly half: SessionTable }>> = {
  HK: {
    full: {
      normal: [
        { start: at(9, 30), end: at(12, 0) },
        { start: at(13, 0), end: at(16, 0), timeout: 600 },
      ],
    },
    half: { normal: [{ start: at(9, 30), end: at(12, 0), timeout: 600 }] },
  },
  SG: {
    full: {
      normal: [
        { start: at(9, 0), end: at(12, 0) },
        { start: at(13, 0), end: at(17, 15), timeout: 300 },
      ],
    },
    half: { normal: [{ start: at(9, 0), end: at(12, 15), timeout: 300 }] },
  },
  CN: {
    full: {
      normal: [
        { start: at(9, 30), end: at(11, 30) },
        { start: at(13, 0), end: at(15, 0), timeout: 600 },
      ],
    },
    half: {},
  },
  US: {
    full: {
      normal: [{ start: at(9, 30), end: at(16, 0) }],
      pre: [{ start: at(4, 0), end: at(9, 30) }],
      post: [{ start: at(16, 0), end: at(20, 0) }],
      overnight: US_OVERNIGHT,
    },
    half: {
      normal: [{ start: at(9, 30), end: at(13, 0) }],
      pre: [{ start: at(4, 0), end: at(9, 30) }],
      post: [{ start: at(13, 0), end: at(17, 0) }],
      overnight: US_OVERNIGHT,
    },
  },
};

/** Shares per unit of volume when turnover is price × volume × lot (CN volumes are in lots of 100). */
export const TURNOVER_LOT: Readonly<Record<Market, number>> = { HK: 1, US: 1, SG: 1, CN: 100 };

/**
 * The start (epoch ms) of the `period` candle a trade at `time` belongs to, or undefined when it belongs to none:
 * outside the sessions of its trade session, or a calendar period outside the regular session.
 */
export function candleTime(market: Market, session: TradeSession, halfDay: boolean, period: Period, time: number): number | undefined {
  if (session !== 'normal' && !isIntraday(period)) return undefined;
  const zone = timeZoneOf(market);
  const sessions = (halfDay ? TABLES[market].half : TABLES[market].full)[session];
  if (sessions === undefined || sessions.length === 0) return undefined;
  const local = toLocal(time, zone);
  let seconds = at(local.hour, local.minute, local.second);
  const found = findSession(sessions, seconds);
  if (found === undefined) return undefined;
  const current = sessions[found.index]!;
  if (found.after) {
    if (seconds >= current.end + (current.timeout ?? 0)) return undefined;
    seconds = current.end;
  }
  const day = { year: local.year, month: local.month, day: local.day };
  const minutes = periodMinutes(period);
  if (minutes !== undefined) {
    const minute = Math.floor(seconds / 60);
    const start = Math.floor(current.start / 60);
    const bucket = minutes === 1 ? minute : start + Math.floor((minute - start) / minutes) * minutes;
    return fromLocal({ ...day, hour: Math.floor(bucket / 60), minute: bucket % 60, second: 0 }, zone);
  }
  const midnight = (year: number, month: number, date: number): number =>
    fromLocal({ year, month, day: date, hour: 0, minute: 0, second: 0 }, zone);
  switch (period) {
    case 'day':
      return midnight(day.year, day.month, day.day);
    case 'week': {
      const weekday = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
      const monday = new Date(Date.UTC(day.year, day.month - 1, day.day - ((weekday + 6) % 7)));
      return midnight(monday.getUTCFullYear(), monday.getUTCMonth() + 1, monday.getUTCDate());
    }
    case 'month':
      return midnight(day.year, day.month, 1);
    case 'quarter':
      return midnight(day.year, Math.floor((day.month - 1) / 3) * 3 + 1, 1);
    default:
      return midnight(day.year, 1, 1);
  }
}

/** The start of the market-local day of an instant (a quote-built day bar's time, whatever the hour). */
export function localMidnight(market: Market, time: number): number {
  const zone = timeZoneOf(market);
  const local = toLocal(time, zone);
  return fromLocal({ year: local.year, month: local.month, day: local.day, hour: 0, minute: 0, second: 0 }, zone);
}

/** The session `seconds` falls in, or the one it comes after; undefined before the first. */
function findSession(sessions: readonly CandleSession[], seconds: number): { index: number; after: boolean } | undefined {
  for (let index = 0; index < sessions.length; index++) {
    const session = sessions[index]!;
    if (seconds < session.start) return index === 0 ? undefined : { index: index - 1, after: true };
    if (session.inclusive ? seconds <= session.end : seconds < session.end) return { index, after: false };
  }
  return { index: sessions.length - 1, after: true };
}
