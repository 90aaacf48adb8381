// A walk-forward window as the days it holds. Its time range ends exclusively (the next window starts there);
// shown, it ends on its last day included, as --to does, so no day reads as belonging to two windows.
import type { TimeRange } from './trial.js';

export interface WindowDates {
  readonly from: string;
  /** The last day in the window (its range ends just after it). */
  readonly to: string;
}

/** `date`: epoch ms → YYYY-MM-DD in the market's zone. */
export function windowDates(range: TimeRange, date: (time: number) => string): WindowDates {
  return { from: date(range.from), to: date(range.to - 1) };
}

/** `2001-01-02..2003-01-01`: first and last day included. */
export function windowLabel(range: TimeRange, date: (time: number) => string): string {
  const { from, to } = windowDates(range, date);
  return `${from}..${to}`;
}
