// The times of a Parquet candle file: stored dates and timestamps (copied page by page as integers), and
// times of other kinds (text, INT96, plain epoch integers) read from their joined pages, each into epoch ms.
import type { SchemaElement } from 'hyparquet';
import { DAY_MS } from '../../domain/civil-date.js';
import type { ZoneRules } from '../../domain/time-zone.js';
import { emptyCellProblem } from './bad-data-error.js';
import { clockChangeNote, wallTimeOf } from './clock-change-note.js';
import { TimeTextReader } from './time-text.js';

/** A file's times as epoch ms (NaN where a row has none), with what bad rows' messages say of them. */
export interface ReadTimes {
  readonly instants: Float64Array;
  readonly dateOnly: boolean;
  /** Why a row has no time. */
  readonly problem: (index: number) => string;
  /** The clock-change note of a row whose time clashes with an earlier row's (empty when none explains it). */
  readonly clockChange: (index: number, earlier: number) => string;
}

const EMPTY_CELL = (): string => emptyCellProblem('time');
const NO_NOTE = (): string => '';

/** Why a row has no time: an empty cell, or one shown as written. */
function timeProblem(cell: unknown): string {
  return cell === null || cell === undefined ? EMPTY_CELL() : `unparseable time "${textOf(cell)}"`;
}

function textOf(cell: unknown): string {
  return cell instanceof Uint8Array ? Buffer.from(cell).toString('utf8') : String(cell);
}

/** Pages of cells, each from its first row on, as one array of the file's rows. */
export function joined(list: readonly { rowStart: number; data: ArrayLike<unknown> }[], rows: number): unknown[] {
  const all = new Array<unknown>(rows);
  for (const { rowStart, data } of list)
    for (let index = 0; index < data.length && rowStart + index < rows; index += 1) all[rowStart + index] = data[index];
  return all;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A page of stored times (INT32 days or INT64 timestamps, `perMs` units a ms) into floats from `rowStart`. */
export function copyIntegerTimes(data: ArrayLike<unknown>, into: Float64Array, rowStart: number, perMs: bigint): void {
  const count = Math.min(data.length, into.length - rowStart);
  if (data instanceof BigInt64Array && perMs === 1n && LITTLE_ENDIAN) {
    // Read as 32-bit halves, no BigInt per value; rounded once, as Number(bigint) is.
    const words = new Int32Array(data.buffer, data.byteOffset, count * 2);
    for (let index = 0; index < count; index += 1)
      into[rowStart + index] = words[2 * index + 1]! * 4_294_967_296 + (words[2 * index]! >>> 0);
    return;
  }
  if (data instanceof BigInt64Array && LITTLE_ENDIAN) {
    // µs or ns: below 2^52 in size a float holds the value, and truncating its quotient by the units a ms
    // is the integer division's (the quotient's float is off by less than the 1/perMs a fraction is from an
    // integer); larger ones are divided as BigInts. `+ 0` makes the -0 of a small negative quotient 0.
    const words = new Int32Array(data.buffer, data.byteOffset, count * 2);
    const units = Number(perMs);
    for (let index = 0; index < count; index += 1) {
      const high = words[2 * index + 1]!;
      into[rowStart + index] =
        high > -1_048_576 && high < 1_048_576
          ? Math.trunc((high * 4_294_967_296 + (words[2 * index]! >>> 0)) / units) + 0
          : Number(data[index]! / perMs);
    }
    return;
  }
  for (let index = 0; index < count; index += 1) {
    const value = data[index];
    into[rowStart + index] =
      typeof value === 'number' ? value : typeof value === 'bigint' ? Number(perMs === 1n ? value : value / perMs) : Number.NaN;
  }
}

/**
 * Epoch ms of stored times: market-local dates to the start of their day, local timestamps (TIMESTAMP not
 * adjusted to UTC: pandas' and Polars' naive datetimes, DuckDB's TIMESTAMP) as the market's wall times, as
 * times without an offset in a CSV file are, and UTC timestamps as they are.
 */
export function storedInstants(stored: Float64Array, element: SchemaElement, zone: ZoneRules): ReadTimes {
  if (element.type === 'INT32') {
    for (let index = 0; index < stored.length; index += 1) {
      const days = stored[index]!;
      stored[index] = Number.isNaN(days) ? Number.NaN : zone.instantOf(days * DAY_MS);
    }
    return { instants: stored, dateOnly: true, problem: EMPTY_CELL, clockChange: NO_NOTE };
  }
  if (element.logical_type?.type === 'TIMESTAMP' && !element.logical_type.isAdjustedToUTC) {
    // The wall times are kept for the notes on rows that clash at a clock change.
    const out = new Float64Array(stored.length);
    for (let index = 0; index < stored.length; index += 1) {
      const wall = stored[index]!;
      out[index] = Number.isNaN(wall) ? Number.NaN : zone.instantOf(wall);
    }
    const clockChange = (index: number, earlier: number): string => clockChangeNote(zone, stored[index], stored[earlier], 'timestamp');
    return { instants: out, dateOnly: false, problem: EMPTY_CELL, clockChange };
  }
  return { instants: stored, dateOnly: false, problem: EMPTY_CELL, clockChange: NO_NOTE };
}

/** DATE (INT32 days) or TIMESTAMP (INT64) in ms, µs or ns. */
export function isIntegerTime(element: SchemaElement): boolean {
  return (
    (element.type === 'INT32' && (element.converted_type === 'DATE' || element.logical_type?.type === 'DATE')) ||
    (element.type === 'INT64' && timestampUnit(element) !== undefined)
  );
}

/** Stored units per ms of a TIMESTAMP column, undefined for other columns. */
export function timestampUnit(element: SchemaElement): bigint | undefined {
  const logical = element.logical_type;
  const unit =
    logical?.type === 'TIMESTAMP'
      ? logical.unit
      : element.converted_type?.startsWith('TIMESTAMP_')
        ? element.converted_type.slice(10)
        : undefined;
  return unit === 'MILLIS' ? 1n : unit === 'MICROS' ? 1000n : unit === 'NANOS' ? 1_000_000n : undefined;
}

/** Epoch ms per row of times given as text, INT96 or plain integers; NaN where a value is missing or unreadable. */
export function instants(data: ArrayLike<unknown>, element: SchemaElement, zone: ZoneRules, rows: number): ReadTimes {
  const out = new Float64Array(rows);
  const logical = element.logical_type?.type;
  if (element.type === 'BYTE_ARRAY' || element.converted_type === 'UTF8' || logical === 'STRING') {
    const reader = new TimeTextReader(zone);
    let dateOnly = true;
    for (let index = 0; index < rows; index += 1) {
      const text = data[index];
      const bytes = text instanceof Uint8Array ? text : Buffer.from(typeof text === 'string' ? text : '', 'utf8');
      out[index] = reader.parseCommon(bytes, 0, bytes.length) ? reader.instant : Number.NaN;
      if (!reader.dateOnly) dateOnly = false;
    }
    const wallOf = (index: number): number | undefined => {
      const cell = data[index];
      return cell === null || cell === undefined ? undefined : wallTimeOf(textOf(cell));
    };
    const clockChange = (index: number, earlier: number): string => clockChangeNote(zone, wallOf(index), wallOf(earlier), 'text');
    return { instants: out, dateOnly, problem: (index) => timeProblem(data[index]), clockChange };
  }
  // INT96 times arrive as ms (our parser); plain integers are epoch seconds, ms, µs or ns.
  const int96 = element.type === 'INT96';
  for (let index = 0; index < rows; index += 1) {
    const value = data[index];
    out[index] = int96 ? Number(value ?? Number.NaN) : epochMs(value);
  }
  return { instants: out, dateOnly: false, problem: (index) => timeProblem(data[index]), clockChange: NO_NOTE };
}

/** The largest epoch ms a Date holds (±100,000,000 days). */
const MAX_EPOCH_MS = 8.64e15;

/**
 * Epoch ms of a plain integer time, its unit told by its size: seconds below 10^10 (to 2286), ms below 10^14
 * (from 1970-04-26), µs below 10^17, else ns (pandas' int64 times). NaN where missing or out of range.
 */
function epochMs(value: unknown): number {
  if (value === null || value === undefined) return Number.NaN;
  const number = Number(value);
  const size = Math.abs(number);
  const perMs = size < 1e14 ? 1n : size < 1e17 ? 1000n : 1_000_000n;
  const ms =
    size < 1e10 ? number * 1000 : perMs === 1n ? number : typeof value === 'bigint' ? Number(value / perMs) : number / Number(perMs);
  return Math.abs(ms) <= MAX_EPOCH_MS ? ms : Number.NaN;
}
