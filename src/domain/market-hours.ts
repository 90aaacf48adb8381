// Each market's time zone and regular trading sessions (local wall time), as the service reports them.
import type { Market } from './symbol.js';

/** A session as HHMM local times, e.g. { begin: 930, end: 1200 }. */
export interface SessionWindow {
  readonly begin: number;
  readonly end: number;
}

export const MARKET_TIME_ZONES: Readonly<Record<Market, string>> = {
  HK: 'Asia/Hong_Kong',
  US: 'America/New_York',
  CN: 'Asia/Shanghai',
  SG: 'Asia/Singapore',
};

export const REGULAR_SESSIONS: Readonly<Record<Market, readonly SessionWindow[]>> = {
  HK: [
    { begin: 930, end: 1200 },
    { begin: 1300, end: 1600 },
  ],
  US: [{ begin: 930, end: 1600 }],
  CN: [
    { begin: 930, end: 1130 },
    { begin: 1300, end: 1500 },
  ],
  SG: [
    { begin: 900, end: 1200 },
    { begin: 1300, end: 1700 },
  ],
};

/** Half days close after the morning session (HK, CN, SG) or at 13:00 (US). */
export function halfDaySessions(market: Market): readonly SessionWindow[] {
  return market === 'US' ? [{ begin: 930, end: 1300 }] : [REGULAR_SESSIONS[market][0]!];
}

export function timeZoneOf(market: Market): string {
  return MARKET_TIME_ZONES[market];
}

/** Whether an HHMM local time falls inside one of the sessions (begin inclusive, end exclusive). */
export function inSessions(hhmm: number, sessions: readonly SessionWindow[]): boolean {
  return sessions.some((session) => hhmm >= session.begin && hhmm < session.end);
}
