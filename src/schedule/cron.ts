// Cron expressions evaluated in a time zone against any instant, so they run on the injected Clock.
//
// The split with node-cron 4: node-cron parses and validates the expression (5 fields, or 6 with seconds;
// names, ranges, steps, @daily…), and this file does the matching. node-cron's own timer loop cannot be
// used because it reads `new Date()` and arms real `setTimeout`s (and registers every task in a global
// registry), so it would neither run on VirtualClock nor let us say what happens at daylight-saving changes.
//
// Daylight-saving policy (the same for every zone):
// - a wall time skipped by a spring-forward jump fires once, at the instant of the jump (02:30 in New York
//   on the March change fires at 03:00 EDT); several skipped times collapse into that one fire;
// - a wall time repeated by a fall-back change fires once, at its first occurrence.
// Day-of-month and day-of-week are AND-ed, as node-cron matches them.
import { parse, validateDetailed } from 'node-cron';
import { InvalidInputError } from '../domain/errors.js';
import { toLocal, zoneOffsetAt } from '../domain/time-zone.js';

export interface CronExpression {
  readonly source: string;
  readonly seconds: readonly number[];
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  readonly days: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly weekdays: ReadonlySet<number>;
}

const DAY_MS = 86_400_000;
/** How far to look for a fire time: a year and a bit covers every valid expression (e.g. Feb 29). */
const SEARCH_DAYS = 366 * 4 + 1;

/** Why an expression is not usable, or undefined when it is. */
export function cronProblem(expression: string): string | undefined {
  const validation = validateDetailed(expression);
  if (!validation.valid) {
    const first = validation.errors[0];
    return first === undefined ? 'invalid' : first.message;
  }
  const fields = parse(expression);
  const tokens = [...fields.dayOfMonth, ...fields.dayOfWeek];
  if (tokens.some((token) => typeof token !== 'number')) return 'L, W and # day tokens are not supported by the scheduler';
  return undefined;
}

/** Parses an expression; throws InvalidInputError naming the expression when it is not usable. */
export function parseCron(expression: string): CronExpression {
  const problem = cronProblem(expression);
  if (problem !== undefined) throw new InvalidInputError(`invalid cron expression "${expression}": ${problem}`, 'cron');
  const fields = parse(expression);
  const numbers = (values: readonly (number | string)[]): number[] => values.filter((value): value is number => typeof value === 'number');
  const ascending = (values: readonly number[]): number[] => [...new Set(values)].sort((a, b) => a - b);
  return {
    source: expression,
    seconds: ascending(fields.second),
    minutes: ascending(fields.minute),
    hours: ascending(fields.hour),
    days: new Set(numbers(fields.dayOfMonth)),
    months: new Set(fields.month),
    weekdays: new Set(numbers(fields.dayOfWeek)),
  };
}

/** The first fire instant strictly after `afterMs`, or undefined when there is none within four years. */
export function nextFire(cron: CronExpression, afterMs: number, zone: string): number | undefined {
  const start = toLocal(afterMs, zone);
  const floor = wallSeconds(start.hour, start.minute, start.second);
  let day = { year: start.year, month: start.month, day: start.day };
  for (let index = 0; index < SEARCH_DAYS; index++, day = shiftDay(day, 1)) {
    if (!dayMatches(cron, day)) continue;
    for (const hour of cron.hours) {
      for (const minute of cron.minutes) {
        for (const second of cron.seconds) {
          // Wall times up to the start's own are earlier instants too (see the policy above).
          if (index === 0 && wallSeconds(hour, minute, second) <= floor) continue;
          const instant = resolveWallTime({ ...day, hour, minute, second }, zone);
          if (instant > afterMs) return instant;
        }
      }
    }
  }
  return undefined;
}

/** The last fire instant at or before `atMs`, or undefined when there is none within four years. */
export function previousFire(cron: CronExpression, atMs: number, zone: string): number | undefined {
  const start = toLocal(atMs, zone);
  // Just after a fall-back change, later wall times of the repeated hour are earlier instants: look two
  // hours past the start's wall time then (only then: it costs a resolution per candidate).
  const fellBack = zoneOffsetAt(atMs - 3 * 3_600_000, zone) !== zoneOffsetAt(atMs, zone);
  const ceiling = wallSeconds(start.hour, start.minute, start.second) + (fellBack ? 2 * 3600 : 0);
  const hours = [...cron.hours].reverse();
  const minutes = [...cron.minutes].reverse();
  const seconds = [...cron.seconds].reverse();
  let day = { year: start.year, month: start.month, day: start.day };
  for (let index = 0; index < SEARCH_DAYS; index++, day = shiftDay(day, -1)) {
    if (!dayMatches(cron, day)) continue;
    for (const hour of hours) {
      for (const minute of minutes) {
        for (const second of seconds) {
          if (index === 0 && wallSeconds(hour, minute, second) > ceiling) continue;
          const instant = resolveWallTime({ ...day, hour, minute, second }, zone);
          if (instant <= atMs) return instant;
        }
      }
    }
  }
  return undefined;
}

interface LocalDay {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

interface WallTime extends LocalDay {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** The instant of a wall time under the daylight-saving policy of this file. */
export function resolveWallTime(wall: WallTime, zone: string): number {
  const naive = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const offsetBefore = zoneOffsetAt(naive - DAY_MS, zone);
  const offsetAfter = zoneOffsetAt(naive + DAY_MS, zone);
  if (offsetBefore === offsetAfter) return naive - offsetBefore;
  const candidates = [naive - offsetBefore, naive - offsetAfter].sort((a, b) => a - b);
  for (const candidate of candidates) {
    if (candidate + zoneOffsetAt(candidate, zone) === naive) return candidate;
  }
  return transitionBetween(candidates[0]!, candidates[1]!, zone);
}

// The first instant (to the second) whose offset differs from the offset at `from`: the moment of a jump.
function transitionBetween(from: number, to: number, zone: string): number {
  const before = zoneOffsetAt(from, zone);
  let low = from;
  let high = to;
  while (high - low > 1000) {
    const middle = low + Math.floor((high - low) / 2000) * 1000;
    if (zoneOffsetAt(middle, zone) === before) low = middle;
    else high = middle;
  }
  return high;
}

function dayMatches(cron: CronExpression, day: LocalDay): boolean {
  const weekday = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay();
  return cron.months.has(day.month) && cron.days.has(day.day) && cron.weekdays.has(weekday);
}

function shiftDay(day: LocalDay, delta: number): LocalDay {
  const date = new Date(Date.UTC(day.year, day.month - 1, day.day + delta));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

function wallSeconds(hour: number, minute: number, second: number): number {
  return hour * 3600 + minute * 60 + second;
}
