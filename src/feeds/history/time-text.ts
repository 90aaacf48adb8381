// Times of candle rows read from bytes: epoch seconds or ms, or ISO dates and date-times, in a zone unless
// they carry an offset. The loaders' hot path: no string, no regular expression, no object per row.
import { DAY_MS, daysFromCivil, daysInMonth } from '../../domain/civil-date.js';
import type { ZoneRules } from '../../domain/time-zone.js';

/** Whole-number digits a float holds exactly (below 2^53). */
const EXACT_DIGITS = 15;
const SPACE = 32;
const TAB = 9;
const RETURN = 13;
const DIGIT_0 = 48;

export class TimeTextReader {
  /** The last time parsed, epoch ms (a field, not a return value: a float returned from a call is boxed). */
  instant = Number.NaN;
  /** Whether the last time parsed had no time of day (a date-only row). */
  dateOnly = false;

  /** The date (yyyymmdd) parseCommon read last, and its midnight as wall ms: the rows of a day share them. */
  private lastDateKey = -1;
  private lastDateWall = 0;

  constructor(private readonly zone: ZoneRules) {}

  /**
   * parse, with the cells of most files taken first: exactly YYYY-MM-DD, YYYY-MM-DD[T ]HH:MM or
   * YYYY-MM-DD[T ]HH:MM:SS, with no offset. The same answers as parse (the reference; one property test).
   */
  parseCommon(bytes: Uint8Array, from: number, to: number): boolean {
    const length = to - from;
    if ((length !== 10 && length !== 16 && length !== 19) || bytes[from + 4] !== 45 || bytes[from + 7] !== 45)
      return this.parse(bytes, from, to);
    const y1 = bytes[from]! - DIGIT_0;
    const y2 = bytes[from + 1]! - DIGIT_0;
    const y3 = bytes[from + 2]! - DIGIT_0;
    const y4 = bytes[from + 3]! - DIGIT_0;
    const m1 = bytes[from + 5]! - DIGIT_0;
    const m2 = bytes[from + 6]! - DIGIT_0;
    const d1 = bytes[from + 8]! - DIGIT_0;
    const d2 = bytes[from + 9]! - DIGIT_0;
    // Unsigned: a byte below '0' wraps above 9.
    if (y1 >>> 0 > 9 || y2 >>> 0 > 9 || y3 >>> 0 > 9 || y4 >>> 0 > 9 || m1 >>> 0 > 9 || m2 >>> 0 > 9 || d1 >>> 0 > 9 || d2 >>> 0 > 9)
      return this.parse(bytes, from, to);
    const year = y1 * 1000 + y2 * 100 + y3 * 10 + y4;
    const month = m1 * 10 + m2;
    const day = d1 * 10 + d2;
    const key = year * 10_000 + month * 100 + day;
    if (key !== this.lastDateKey) {
      if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
      this.lastDateKey = key;
      this.lastDateWall = daysFromCivil(year, month, day) * DAY_MS;
    }
    if (length === 10) {
      this.dateOnly = true;
      this.instant = this.zone.instantOf(this.lastDateWall);
      return true;
    }
    const separator = bytes[from + 10];
    if ((separator !== 84 && separator !== SPACE) || bytes[from + 13] !== 58 || (length === 19 && bytes[from + 16] !== 58))
      return this.parse(bytes, from, to);
    const h1 = bytes[from + 11]! - DIGIT_0;
    const h2 = bytes[from + 12]! - DIGIT_0;
    const n1 = bytes[from + 14]! - DIGIT_0;
    const n2 = bytes[from + 15]! - DIGIT_0;
    const s1 = length === 19 ? bytes[from + 17]! - DIGIT_0 : 0;
    const s2 = length === 19 ? bytes[from + 18]! - DIGIT_0 : 0;
    if (h1 >>> 0 > 9 || h2 >>> 0 > 9 || n1 >>> 0 > 9 || n2 >>> 0 > 9 || s1 >>> 0 > 9 || s2 >>> 0 > 9) return this.parse(bytes, from, to);
    const hour = h1 * 10 + h2;
    const minute = n1 * 10 + n2;
    const second = s1 * 10 + s2;
    if (hour > 23 || minute > 59 || second > 59) return false;
    this.dateOnly = false;
    this.instant = this.zone.instantOf(this.lastDateWall + hour * 3_600_000 + minute * 60_000 + second * 1000);
    return true;
  }

  /**
   * Reads a time cell into `instant` (epoch ms) and `dateOnly`; false when it is not one. Times are 9–10
   * digits of epoch seconds (1973-03-03 to 2286) or 11–13 of ms (from 1970-04-26: as seconds, 11 digits would
   * be the year 5138), or an ISO date with an optional time (T or space, HH:MM[:SS[.fff]]) and
   * an optional Z or ±HH[[:]MM] offset (under 24 hours); times without an offset are wall times of the zone.
   */
  parse(bytes: Uint8Array, from: number, to: number): boolean {
    let start = from;
    let end = to;
    while (start < end && (bytes[start] === SPACE || bytes[start] === TAB)) start += 1;
    while (end > start && (bytes[end - 1] === SPACE || bytes[end - 1] === TAB || bytes[end - 1] === RETURN)) end -= 1;
    const length = end - start;
    const epoch = digitsAt(bytes, start, length);
    if (epoch >= 0 && length >= 9 && length <= 13) {
      this.dateOnly = false;
      this.instant = length >= 11 ? epoch : epoch * 1000;
      return true;
    }
    if (length < 10 || bytes[start + 4] !== 45 || bytes[start + 7] !== 45) return false;
    const year = digitsAt(bytes, start, 4);
    const month = digitsAt(bytes, start + 5, 2);
    const day = digitsAt(bytes, start + 8, 2);
    if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
    let position = start + 10;
    let hour = 0;
    let minute = 0;
    let second = 0;
    let millisecond = 0;
    this.dateOnly = true;
    const separator = bytes[position];
    if (position < end && (separator === 84 || separator === SPACE) && bytes[position + 3] === 58) {
      hour = digitsAt(bytes, position + 1, 2);
      minute = digitsAt(bytes, position + 4, 2);
      if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || position + 6 > end) return false;
      position += 6;
      this.dateOnly = false;
      if (position < end && bytes[position] === 58) {
        second = digitsAt(bytes, position + 1, 2);
        if (second < 0 || second > 59 || position + 3 > end) return false;
        position += 3;
        if (position < end && bytes[position] === 46) {
          position += 1;
          const digitsFrom = position;
          // Milliseconds, the resolution of every time here: digits past the third (pandas' µs and ns) are cut.
          let scale = 100;
          while (position < end && bytes[position]! >= DIGIT_0 && bytes[position]! <= DIGIT_0 + 9) {
            millisecond += (bytes[position]! - DIGIT_0) * scale;
            scale /= 10;
            position += 1;
          }
          millisecond = Math.floor(millisecond);
          if (position === digitsFrom) return false;
        }
      }
    }
    while (position < end && (bytes[position] === SPACE || bytes[position] === TAB)) position += 1;
    const wall = daysFromCivil(year, month, day) * DAY_MS + hour * 3_600_000 + minute * 60_000 + second * 1000 + millisecond;
    if (position === end) {
      this.instant = this.zone.instantOf(wall);
      return true;
    }
    const sign = bytes[position];
    // Z, or z (RFC 3339 takes either).
    if ((sign === 90 || sign === 122) && position + 1 === end) {
      this.instant = wall;
      return true;
    }
    if (sign !== 43 && sign !== 45) return false;
    const offsetHours = digitsAt(bytes, position + 1, 2);
    // ±HH alone is ISO 8601's too, and what PostgreSQL writes of a whole-hour offset ("… 15:59:00+00").
    const hoursOnly = position + 3 === end;
    const colon = bytes[position + 3] === 58 ? 1 : 0;
    const offsetMinutes = hoursOnly ? 0 : digitsAt(bytes, position + 3 + colon, 2);
    // Under 24 hours, minutes under 60 (as ISO 8601 and Temporal have them): "+24:00"
    // or "+05:99" is a bad cell, not a time a day or an hour away.
    if (offsetHours < 0 || offsetHours > 23 || offsetMinutes < 0 || offsetMinutes > 59 || (!hoursOnly && position + 5 + colon !== end))
      return false;
    const offset = (offsetHours * 60 + offsetMinutes) * 60_000;
    this.instant = sign === 45 ? wall + offset : wall - offset;
    return true;
  }
}

/** The number of `count` decimal digits at `start`, or −1 if any is not a digit (or count is 0 or past 15). */
function digitsAt(bytes: Uint8Array, start: number, count: number): number {
  if (count <= 0 || count > EXACT_DIGITS || start + count > bytes.length) return -1;
  let value = 0;
  for (let position = start; position < start + count; position += 1) {
    const digit = bytes[position]! - DIGIT_0;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}
