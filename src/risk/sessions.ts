// Whether an instant falls in one of the allowed sessions, in the local time of the symbol's market.
import { REGULAR_SESSIONS, inSessions, timeZoneOf, toLocal, type Market } from '../domain/index.js';
import type { SessionRule } from './config.js';

export function inAllowedSession(time: number, market: Market, rules: readonly SessionRule[]): boolean {
  const local = toLocal(time, timeZoneOf(market));
  const weekday = new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const hhmm = local.hour * 100 + local.minute;
  return rules.some((rule) => (rule === 'regular' ? inSessions(hhmm, REGULAR_SESSIONS[market]) : inSessions(hhmm, [rule])));
}

export function describeSessions(rules: readonly SessionRule[]): string {
  return rules.map((rule) => (rule === 'regular' ? 'regular' : `${hhmm(rule.begin)}-${hhmm(rule.end)}`)).join(', ');
}

function hhmm(value: number): string {
  return `${String(Math.floor(value / 100)).padStart(2, '0')}:${String(value % 100).padStart(2, '0')}`;
}
