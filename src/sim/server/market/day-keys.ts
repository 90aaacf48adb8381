// Calendar arithmetic on yyyymmdd day keys (market-local dates), for the generated derivatives' expiries.

const DAY_MS = 86_400_000;

export function utcOfDayKey(key: number): number {
  return Date.UTC(Math.floor(key / 10_000), (Math.floor(key / 100) % 100) - 1, key % 100);
}

export function dayKeyOfUtc(time: number): number {
  const date = new Date(time);
  return date.getUTCFullYear() * 10_000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate();
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: number, to: number): number {
  return Math.round((utcOfDayKey(to) - utcOfDayKey(from)) / DAY_MS);
}

export function addDays(key: number, days: number): number {
  return dayKeyOfUtc(utcOfDayKey(key) + days * DAY_MS);
}

/** The third Friday of the month `monthsAhead` months after the month of `key`. */
export function thirdFriday(key: number, monthsAhead: number): number {
  const base = new Date(utcOfDayKey(key));
  const first = new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + monthsAhead, 1));
  const friday = 1 + ((5 - first.getUTCDay() + 7) % 7) + 14;
  return dayKeyOfUtc(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), friday));
}

/** The last weekday of the month `monthsAhead` months after the month of `key`. */
export function lastWeekdayOfMonth(key: number, monthsAhead: number): number {
  const base = new Date(utcOfDayKey(key));
  let time = Date.UTC(base.getUTCFullYear(), base.getUTCMonth() + monthsAhead + 1, 0);
  while ([0, 6].includes(new Date(time).getUTCDay())) time -= DAY_MS;
  return dayKeyOfUtc(time);
}

/** Unix seconds as the decimal text the wire carries. */
export function unixSecondsText(time: number): string {
  return String(Math.floor(time / 1000));
}
