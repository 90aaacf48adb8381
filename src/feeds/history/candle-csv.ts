// Reads the candle CSV format of DESIGN.md straight from the file's bytes into typed columns: a header naming
// time|date|datetime|timestamp, open, high, low, close, volume (any case, any order, extra columns
// ignored); times in the market's local zone unless they carry an offset. No row becomes an object or a
// string unless it is bad: every bad row is reported with its line and reason.
import type { Candle } from '../../domain/candle.js';
import type { Period } from '../../domain/period.js';
import { ZoneRules } from '../../domain/time-zone.js';
import {
  BadDataError,
  emptyCellProblem,
  inexactProblem,
  valueProblem,
  barRangeProblem,
  type DataProblem,
  unsortedRowsError,
} from './bad-data-error.js';
import { candlesOf, ColumnBuilder } from './candle-columns.js';
import { type CandleFileOptions, inferPeriod, type LoadedColumns } from './loaded-columns.js';
import { clockChangeNote, wallTimeOf } from './clock-change-note.js';
import { unquoted } from './csv-cell.js';
import { SymbolColumnValues } from './symbol-column.js';
import { TimeTextReader } from './time-text.js';
import { nextPiece, PIECE_BYTES } from './load-pieces.js';
import { readHeader, type Header } from './csv-header.js';
import { DECIMAL, heldExactly, INEXACT, placesOfText } from './number-text.js';

export interface CandleCsvResult {
  readonly candles: Candle[];
  readonly period: Period;
  readonly problems: readonly DataProblem[];
  readonly skippedRows: number;
}

const VALUE_NAMES = ['open', 'high', 'low', 'close', 'volume'] as const;
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, power) => 10 ** power);
/** Whole-number digits a float holds exactly (below 2^53). */
const EXACT_DIGITS = 15;
const NEWLINE = 10;
const RETURN = 13;
const COMMA = 44;
const SPACE = 32;
const TAB = 9;
const DIGIT_0 = 48;
const DOT = 46;
const QUOTE = 34;

/** A candle CSV file as candles (for callers that want objects; the backtest reads columns). */
export function parseCandleCsv(text: string, options: CandleFileOptions): CandleCsvResult {
  const { columns, problems, skippedRows } = readCandleCsv(Buffer.from(text, 'utf8'), options);
  return { candles: candlesOf(columns), period: columns.period, problems, skippedRows };
}

/**
 * A candle CSV file's rows as columns, checked (bad rows reported by line, under the skip or fail policy).
 * `rowReader`: 'fast' (default) reads a file laid out time,open,high,low,close,volume with a parser for that
 * layout, line by line, handing any line it does not take to the general one; 'general' uses the general
 * parser only (the reference the fast one is tested against).
 */
export function readCandleCsv(bytes: Uint8Array, options: CandleFileOptions, rowReader: 'fast' | 'general' = 'fast'): LoadedColumns {
  const passes = new CsvReader(bytes, options, rowReader === 'fast').passes(Number.POSITIVE_INFINITY);
  for (;;) {
    const step = passes.next();
    if (step.done === true) return step.value;
  }
}

/** readCandleCsv `piece` bytes at a time (load-pieces.ts); throws the reason `signal` was aborted with. */
export async function readCandleCsvInPieces(
  bytes: Uint8Array,
  options: CandleFileOptions,
  signal: AbortSignal,
  piece = PIECE_BYTES,
): Promise<LoadedColumns> {
  const passes = new CsvReader(bytes, options).passes(piece);
  for (;;) {
    const step = passes.next();
    if (step.done === true) return step.value;
    await nextPiece(signal);
  }
}

class CsvReader {
  private readonly times: TimeTextReader;
  private readonly maxReported: number;
  private readonly problems: DataProblem[] = [];
  private problemCount = 0;
  private backwardRows = 0;
  /** Numbers of the current row: open, high, low, close, volume, turnover (read in the line's pass, or by parseNumber). */
  private readonly values = new Float64Array(6);
  /** Their decimal places; −1 where the line's pass left the cell to parseNumber, −2 where the row has no such cell. */
  private readonly places = new Int32Array(6);
  /** Where scan stands between pieces: what it found beside the rows, and the last row it kept. */
  private allDateOnly = true;
  private pricePlaces = 0;
  private volumePlaces = 0;
  private form = -1;
  private previousTime = Number.NaN;
  private previousLine = 0;
  private previousStart = 0;
  private line = 1;
  /** The line noteSymbols read last (the header's: 1). */
  private symbolLine = 1;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly options: CandleFileOptions,
    private readonly fastRows = true,
  ) {
    this.times = new TimeTextReader(ZoneRules.of(options.timeZone));
    this.maxReported = options.maxReported ?? 10;
  }

  /** The read, as passes over the bytes that pause (yield) after each `piece` bytes. */
  *passes(piece: number): Generator<void, LoadedColumns> {
    const { bytes } = this;
    const { length } = bytes;
    const header = readHeader(bytes, this.options.source);
    if (header.symbolAt >= 0) {
      const values = new SymbolColumnValues(header.symbolName, 'line');
      for (let start = header.bodyStart; start < length; ) {
        start = this.noteSymbols(header, values, start, Math.min(length, start + piece));
        yield;
      }
      this.checkOneSymbol(values);
    }
    // The most rows the file can have: its lines after the header (a last line without a line break counts).
    let lines = length > header.bodyStart && bytes[length - 1] !== NEWLINE ? 1 : 0;
    for (let from = header.bodyStart; from < length; from += piece) {
      lines += lineBreaks(bytes, from, Math.min(length, from + piece));
      yield;
    }
    const columns = new ColumnBuilder(lines);
    for (let start = header.bodyStart; start < length; ) {
      start = this.scan(header, columns, start, Math.min(length, start + piece));
      yield;
    }
    return this.finish(columns);
  }

  /**
   * A long table (a symbol or ticker column naming several symbols) is refused whatever the bad-row policy:
   * its rows of different symbols would clash as duplicate bars, and skipping those would keep a mix of the
   * symbols' prices as one series.
   */
  private checkOneSymbol(values: SymbolColumnValues): void {
    const problem = values.problem();
    if (problem !== undefined)
      throw new BadDataError([{ source: this.options.source, line: 1, reason: problem }], 1, 'unreadable candle data:');
  }

  /** Notes the symbol cells of the lines starting in [from, until); returns where the next line starts. */
  private noteSymbols(header: Header, values: SymbolColumnValues, from: number, until: number): number {
    const { bytes } = this;
    let start = from;
    while (start < until) {
      this.symbolLine += 1;
      let end = bytes.indexOf(NEWLINE, start);
      if (end < 0) end = bytes.length;
      // Cells up to the symbol's (a quoted cell holding a comma is not expected before it in a candle file).
      let cellStart = start;
      for (let cell = 0; cell < header.symbolAt && cellStart <= end; cell += 1) {
        const comma = bytes.indexOf(COMMA, cellStart);
        cellStart = comma < 0 || comma > end ? end + 1 : comma + 1;
      }
      if (cellStart <= end) {
        let cellEnd = bytes.indexOf(COMMA, cellStart);
        if (cellEnd < 0 || cellEnd > end) cellEnd = end;
        values.note(unquoted(this.text(cellStart, cellEnd, true)), this.symbolLine);
      }
      start = end + 1;
    }
    return start;
  }

  /**
   * The rows starting in [from, until) into columns, bad ones reported; returns where the next row starts. The
   * hot loop, kept apart from what runs once after it: code the compiler has never seen run would throw the
   * optimised loop away on every file.
   */
  private scan(header: Header, columns: ColumnBuilder, from: number, until: number): number {
    const { bytes } = this;
    const { at, width } = header;
    const needed = Math.max(width, at[6]! + 1);
    // Where each needed cell of the current row starts and ends, and which number slot it fills (−1: none).
    const cellStart = new Int32Array(needed);
    const cellEnd = new Int32Array(needed);
    const slotOf = new Int32Array(needed + 1).fill(-1);
    for (let slot = 0; slot < 6; slot += 1) if (at[slot + 1]! >= 0) slotOf[at[slot + 1]!] = slot;
    const values = this.values;
    const places = this.places;
    const times = this.times;
    const length = bytes.length;
    let allDateOnly = this.allDateOnly;
    // The first kept row's form: 1 a date alone, 0 a date and time; −1 before it. Every row must share it (a
    // date alone among timed rows would be a bar at midnight).
    let form = this.form;
    let pricePlaces = this.pricePlaces;
    let volumePlaces = this.volumePlaces;
    let previousTime = this.previousTime;
    let previousLine = this.previousLine;
    let previousStart = this.previousStart;
    let line = this.line;
    let start = from;
    // The common layout (time, open, high, low, close, volume: nothing else, in that order) has a parser of its own.
    const canonical =
      this.fastRows && width === 6 && at[0] === 0 && at[1] === 1 && at[2] === 2 && at[3] === 3 && at[4] === 4 && at[5] === 5 && at[6]! < 0;
    while (start < until) {
      line += 1;
      if (canonical) {
        const end = this.plainRow(start);
        if (end >= 0) {
          const time = times.instant;
          const open = values[0]!;
          const high = values[1]!;
          const low = values[2]!;
          const close = values[3]!;
          // A clean row in order is taken here; anything to report goes through the general path below.
          const rowForm = times.dateOnly ? 1 : 0;
          if (
            !(time <= previousTime) &&
            (form < 0 || rowForm === form) &&
            low > 0 &&
            low <= open &&
            open <= high &&
            low <= close &&
            close <= high
          ) {
            previousTime = time;
            previousLine = line;
            previousStart = start;
            form = rowForm;
            if (!times.dateOnly) allDateOnly = false;
            const rowPlaces = Math.max(places[0]!, places[1]!, places[2]!, places[3]!);
            if (rowPlaces > pricePlaces) pricePlaces = rowPlaces;
            if (places[4]! > volumePlaces) volumePlaces = places[4]!;
            columns.push(time, open, high, low, close, values[4]!, Number.NaN);
            start = end + 1;
            continue;
          }
        }
      }
      // One pass to the end of the line: cells noted, plain numbers read on the way (the rest after).
      const lineStart = start;
      for (let slot = 0; slot < 6; slot += 1) places[slot] = -2;
      let cells = 1;
      cellStart[0] = start;
      let slot = slotOf[0]!;
      let mantissa = 0;
      let digits = 0;
      let fraction = -1;
      let significant = 0;
      let plain = true;
      let position = start;
      for (;;) {
        const byte = position < length ? bytes[position]! : NEWLINE;
        if (byte === COMMA || byte === NEWLINE) {
          if (cells <= needed) {
            cellEnd[cells - 1] = position;
            if (slot >= 0) {
              if (plain && digits > 0 && digits <= EXACT_DIGITS && fraction !== 0) {
                values[slot] = fraction < 0 ? mantissa : mantissa / POWERS_OF_TEN[fraction]!;
                places[slot] = significant;
              } else places[slot] = -1;
            }
          }
          if (byte === NEWLINE) break;
          if (cells < needed) cellStart[cells] = position + 1;
          slot = cells < needed ? slotOf[cells]! : -1;
          cells += 1;
          mantissa = 0;
          digits = 0;
          fraction = -1;
          significant = 0;
          plain = true;
        } else if (slot >= 0) {
          const digit = byte - DIGIT_0;
          if (digit >= 0 && digit <= 9) {
            mantissa = mantissa * 10 + digit;
            digits += 1;
            if (fraction >= 0) {
              fraction += 1;
              if (digit !== 0) significant = fraction;
            }
          } else if (byte === DOT && fraction < 0) fraction = 0;
          else if (byte !== RETURN || (position + 1 < length && bytes[position + 1] !== NEWLINE)) plain = false;
        }
        position += 1;
      }
      start = position + 1;
      if (cells === 1 && isBlank(bytes, cellStart[0]!, position)) continue;
      if (cells < width) {
        this.report(line, `expected at least ${width} columns, found ${cells}`);
        continue;
      }
      for (let cell = 0; cell < Math.min(cells, needed); cell += 1) this.unquoteCell(cellStart, cellEnd, cell);
      const timeColumn = at[0]!;
      if (!times.parse(bytes, cellStart[timeColumn]!, cellEnd[timeColumn]!)) {
        const cell = this.text(cellStart[timeColumn]!, cellEnd[timeColumn]!, false);
        this.report(line, cell.trim() === '' ? emptyCellProblem('time') : `unparseable time "${cell}"`);
        continue;
      }
      const time = times.instant;
      const rowForm = times.dateOnly ? 1 : 0;
      if (form >= 0 && rowForm !== form) {
        this.report(line, form === 0 ? 'a date without a time among rows with times' : 'a time of day among rows of dates alone');
        continue;
      }
      let inexact = false;
      let bad = -1;
      let badValue = Number.NaN;
      let rowPricePlaces = 0;
      for (let field = 0; field < 5; field += 1) {
        let fieldPlaces = places[field]!;
        if (fieldPlaces === -1) {
          const column = at[field + 1]!;
          fieldPlaces = this.parseNumber(cellStart[column]!, cellEnd[column]!, field);
        }
        const value = values[field]!;
        // A price of 0 is a placeholder, not a trade; a volume may be 0.
        if (fieldPlaces < 0 || !(field < 4 ? value > 0 : value >= 0) || value === Number.POSITIVE_INFINITY) {
          bad = field;
          badValue = fieldPlaces < 0 && fieldPlaces !== INEXACT ? Number.NaN : value;
          inexact = fieldPlaces === INEXACT;
          break;
        }
        if (field < 4) {
          if (fieldPlaces > rowPricePlaces) rowPricePlaces = fieldPlaces;
        } else if (fieldPlaces > volumePlaces) volumePlaces = fieldPlaces;
      }
      if (bad >= 0) {
        const column = at[bad + 1]!;
        const cell = this.text(cellStart[column]!, cellEnd[column]!, true);
        this.report(line, inexact ? inexactProblem(VALUE_NAMES[bad]!, cell, badValue) : valueProblem(VALUE_NAMES[bad]!, cell, badValue));
        continue;
      }
      const open = values[0]!;
      const high = values[1]!;
      const low = values[2]!;
      const close = values[3]!;
      if (high < low || open > high || open < low || close > high || close < low) {
        this.report(line, barRangeProblem(open, high, low, close)!);
        continue;
      }
      if (time === previousTime) {
        this.report(line, `duplicate bar: same time as line ${previousLine}${this.clockChangeNote(lineStart, previousStart, at[0]!)}`);
        continue;
      }
      if (time < previousTime) {
        this.backwardRows += 1;
        this.report(
          line,
          `time goes backwards: earlier than line ${previousLine}${this.clockChangeNote(lineStart, previousStart, at[0]!)}`,
        );
        continue;
      }
      previousTime = time;
      previousLine = line;
      previousStart = lineStart;
      form = rowForm;
      if (!times.dateOnly) allDateOnly = false;
      if (rowPricePlaces > pricePlaces) pricePlaces = rowPricePlaces;
      const row = columns.addRow();
      columns.time[row] = time;
      columns.open[row] = open;
      columns.high[row] = high;
      columns.low[row] = low;
      columns.close[row] = close;
      columns.volume[row] = values[4]!;
      const turnoverColumn = at[6]!;
      if (turnoverColumn >= 0 && turnoverColumn < cells) {
        const turnoverPlaces = places[5] === -1 ? this.parseNumber(cellStart[turnoverColumn]!, cellEnd[turnoverColumn]!, 5) : places[5]!;
        const turnover = values[5]!;
        if (turnoverPlaces >= 0 && Number.isFinite(turnover)) columns.setTurnover(row, turnover);
      }
    }

    this.allDateOnly = allDateOnly;
    this.pricePlaces = pricePlaces;
    this.volumePlaces = volumePlaces;
    this.form = form;
    this.previousTime = previousTime;
    this.previousLine = previousLine;
    this.previousStart = previousStart;
    this.line = line;
    return start;
  }

  /** The rows' verdict: refused (unsorted, or bad rows under the fail policy), or the columns and what was skipped. */
  private finish(columns: ColumnBuilder): LoadedColumns {
    const { options } = this;
    const rows = columns.length + this.problemCount;
    if (this.backwardRows > 10 && this.backwardRows * 20 > rows)
      throw unsortedRowsError(options.source, this.backwardRows, rows, this.problems);
    if (this.problemCount > 0 && (options.onBadRow ?? 'fail') === 'fail') throw new BadDataError(this.problems, this.problemCount);
    const period = options.period ?? inferPeriod(columns, this.allDateOnly, options.source);
    const places = { pricePlaces: this.pricePlaces, volumePlaces: this.volumePlaces };
    return {
      columns: columns.finish({ symbol: options.symbol, period, source: options.source }, places),
      problems: this.problems,
      skippedRows: this.problemCount,
    };
  }

  private report(line: number, reason: string): void {
    this.problemCount += 1;
    if (this.problems.length < this.maxReported) this.problems.push({ source: this.options.source, line, reason });
  }

  /** A row's clock-change note (rows given by where their lines start; `column`: the time's). */
  private clockChangeNote(lineStart: number, otherStart: number, column: number): string {
    const [wall, otherWall] = [lineStart, otherStart].map((start) => wallTimeOf(unquoted(this.lineText(start).split(',')[column] ?? '')));
    return clockChangeNote(ZoneRules.of(this.options.timeZone), wall, otherWall, 'text');
  }

  /** The text of the line starting at `start`, without its line break. */
  private lineText(start: number): string {
    let end = this.bytes.indexOf(NEWLINE, start);
    if (end < 0) end = this.bytes.length;
    return this.text(start, end, false);
  }

  /** Narrows a cell quoted as CSV writers quote ("2024-01-08") to what is inside the quotes. */
  private unquoteCell(cellStart: Int32Array, cellEnd: Int32Array, cell: number): void {
    const bytes = this.bytes;
    let start = cellStart[cell]!;
    let end = cellEnd[cell]!;
    while (start < end && (bytes[start] === SPACE || bytes[start] === TAB)) start += 1;
    while (end > start && (bytes[end - 1] === SPACE || bytes[end - 1] === TAB || bytes[end - 1] === RETURN)) end -= 1;
    if (end - start < 2 || bytes[start] !== QUOTE || bytes[end - 1] !== QUOTE) return;
    cellStart[cell] = start + 1;
    cellEnd[cell] = end - 1;
  }

  /** The text of a cell, for a message. */
  private text(start: number, end: number, trim: boolean): string {
    const text = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString('utf8', start, end);
    const cell = text.endsWith('\r') ? text.slice(0, -1) : text;
    return trim ? cell.trim() : cell;
  }

  /**
   * The line at `start` as time,open,high,low,close,volume with plain numbers (digits, one optional dot, at
   * most 15 digits): fills `times`, `values[0..4]` and `places[0..4]` and returns where the line ends (its
   * newline, or the end of the file); −1 for any other line (the general path then reads and judges it).
   */
  private plainRow(start: number): number {
    const bytes = this.bytes;
    const length = bytes.length;
    let position = start;
    while (position < length && bytes[position] !== COMMA) {
      if (bytes[position] === NEWLINE) return -1;
      position += 1;
    }
    if (position >= length || !this.times.parseCommon(bytes, start, position)) return -1;
    const values = this.values;
    const places = this.places;
    for (let field = 0; field < 5; field += 1) {
      position += 1;
      let mantissa = 0;
      let digits = 0;
      let fraction = -1;
      let significant = 0;
      let byte = position < length ? bytes[position]! : NEWLINE;
      for (;;) {
        const digit = byte - DIGIT_0;
        if (digit >= 0 && digit <= 9) {
          mantissa = mantissa * 10 + digit;
          digits += 1;
          if (fraction >= 0) {
            fraction += 1;
            if (digit !== 0) significant = fraction;
          }
        } else if (byte === DOT && fraction < 0) fraction = 0;
        else break;
        position += 1;
        byte = position < length ? bytes[position]! : NEWLINE;
      }
      if (digits === 0 || digits > EXACT_DIGITS || fraction === 0) return -1;
      if (field < 4) {
        if (byte !== COMMA) return -1;
      } else if (byte === RETURN && position + 1 < length && bytes[position + 1] === NEWLINE) position += 1;
      else if (byte !== NEWLINE) return -1;
      values[field] = fraction < 0 ? mantissa : mantissa / POWERS_OF_TEN[fraction]!;
      places[field] = significant;
    }
    return position;
  }

  /**
   * Reads a decimal number into `values[slot]` and returns its decimal places (trailing zeros not counted),
   * or −1 when the cell is empty or not a number. Plain digits with an optional fraction are read here (the
   * float nearest the decimal, as Number() gives it); anything else (signs, exponents, long mantissas) goes
   * through Number(). The value goes into an array, not out as a return value, which would be boxed.
   */
  private parseNumber(from: number, to: number, slot: number): number {
    const bytes = this.bytes;
    let start = from;
    let end = to;
    while (start < end && (bytes[start] === SPACE || bytes[start] === TAB)) start += 1;
    while (end > start && (bytes[end - 1] === SPACE || bytes[end - 1] === TAB || bytes[end - 1] === RETURN)) end -= 1;
    if (start === end) return -1;
    let mantissa = 0;
    let digits = 0;
    let fraction = -1;
    let significantPlaces = 0;
    for (let position = start; position < end; position += 1) {
      const digit = bytes[position]! - DIGIT_0;
      if (digit >= 0 && digit <= 9) {
        mantissa = mantissa * 10 + digit;
        digits += 1;
        if (fraction >= 0) {
          fraction += 1;
          if (digit !== 0) significantPlaces = fraction;
        }
      } else if (digit === -2 && fraction < 0) fraction = 0;
      else return this.parseOther(start, end, slot);
    }
    if (digits === 0 || digits > EXACT_DIGITS || fraction === 0) return this.parseOther(start, end, slot);
    this.values[slot] = fraction <= 0 ? mantissa : mantissa / POWERS_OF_TEN[fraction]!;
    return significantPlaces;
  }

  private parseOther(start: number, end: number, slot: number): number {
    const text = this.text(start, end, true);
    // Decimal text only: Number() would also read 0x61, 0b11 and Infinity.
    const value = DECIMAL.test(text) ? Number(text) : Number.NaN;
    this.values[slot] = value;
    if (Number.isNaN(value)) return -1;
    if (!Number.isFinite(value)) return 0;
    // Long mantissas (more than 15 digits) and exponents come here, never the plain cells of the fast paths.
    return heldExactly(text, value) ? placesOfText(value) : INEXACT;
  }
}

/** Whether bytes [start, end) are only spaces, tabs and carriage returns. */
function isBlank(bytes: Uint8Array, start: number, end: number): boolean {
  for (let position = start; position < end; position += 1) {
    const byte = bytes[position];
    if (byte !== SPACE && byte !== TAB && byte !== RETURN) return false;
  }
  return true;
}

/** Line breaks in bytes [from, until). */
function lineBreaks(bytes: Uint8Array, from: number, until: number): number {
  let count = 0;
  for (let position = bytes.indexOf(NEWLINE, from); position >= 0 && position < until; position = bytes.indexOf(NEWLINE, position + 1))
    count += 1;
  return count;
}
