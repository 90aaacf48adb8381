// Why two rows' times clash when one is a wall time a clock change skips (read forward) or repeats (read as
// its first occurrence): both candle readers add it to their 'duplicate bar' and 'time goes backwards' rows.
import { DAY_MS, daysFromCivil } from '../../domain/civil-date.js';
import type { ZoneRules } from '../../domain/time-zone.js';

/**
 * Where a repeated wall time's second occurrence can say which it is: a CSV cell or a text column takes an
 * offset; a Parquet TIMESTAMP not adjusted to UTC cannot, so its times are better stored as instants.
 */
export type OffsetsIn = 'text' | 'timestamp';

/**
 * The note for a row whose time clashes with an earlier row's, given their wall times (as ms of the same
 * fields read as UTC; undefined for a time that was not one): empty when no clock change explains it.
 */
export function clockChangeNote(zone: ZoneRules, wall: number | undefined, otherWall: number | undefined, offsetsIn: OffsetsIn): string {
  const rows = [wall, otherWall].map((one) => ({ wall: one, change: one === undefined ? undefined : zone.clockChangeAt(one) }));
  // The row that repeats a wall time is the one meant as its second occurrence; a skipped one read forward
  // clashes with the rows after it.
  const [row, other] = rows as [(typeof rows)[0], (typeof rows)[0]];
  const culprit = row.change === 'repeated' ? row : other.change === 'skipped' ? other : row.change !== undefined ? row : other;
  if (culprit.change === undefined || culprit.wall === undefined) return '';
  const fields = new Date(culprit.wall).toISOString();
  const [date, time] = [fields.slice(0, 10), fields.slice(11, 16)];
  if (culprit.change === 'skipped') {
    const read = zone.instantOf(culprit.wall);
    const local = new Date(read + zone.offsetAt(read)).toISOString().slice(11, 16);
    return ` (${date} ${time} does not exist in ${zone.zone}: the clocks went forward over it, so it reads as ${local})`;
  }
  const advice =
    offsetsIn === 'text'
      ? `write the second with its offset, e.g. ${date}T${time}${offsetText(zone.offsetAt(culprit.wall + DAY_MS))}`
      : "store the times as instants (a TIMESTAMP adjusted to UTC: DuckDB's TIMESTAMPTZ, a time-zone-aware pandas or Polars column)";
  return ` (${date} ${time} happens twice in ${zone.zone}: the clocks went back, and a time without an offset reads as the first; ${advice})`;
}

/** The wall time (as ms of the same fields read as UTC) of a date and time of day without an offset. */
export function wallTimeOf(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  return daysFromCivil(year!, month!, day!) * DAY_MS + hour! * 3_600_000 + minute! * 60_000 + (Number.isNaN(second) ? 0 : second!) * 1000;
}

function offsetText(offsetMs: number): string {
  const minutes = Math.abs(offsetMs) / 60_000;
  return `${offsetMs < 0 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
