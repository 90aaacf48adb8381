// A symbol's candle history as typed columns, one per field: the form files load into and the backtest
// walks. About 48 bytes a bar (56 with turnover), against ~170 for a Candle object; a Candle is made only
// where one is handed out (candleAt).
import type { BarColumns } from '../../domain/bar-stream.js';
import type { Candle } from '../../domain/candle.js';
import type { Period } from '../../domain/period.js';
import type { SecuritySymbol } from '../../domain/symbol.js';

/** The columns of BarColumns (bar start times, epoch ms, ascending; open, high, low, close, volume), and: */
export interface CandleColumns extends BarColumns {
  /** The file (or other label) the bars came from. */
  readonly source: string;
  readonly length: number;
  /** Traded value per bar, NaN where the source has none; undefined when no bar has one. */
  readonly turnover: Float64Array | undefined;
  /**
   * Decimal places that hold every open, high, low and close exactly: each price × 10^pricePlaces is an
   * integer, and each price is the float nearest its decimal (the float Number() reads from the text).
   */
  readonly pricePlaces: number;
  /** The same for volumes. */
  readonly volumePlaces: number;
}

/** A Candle of bar `index` (turnover only when the bar has one). */
export function candleAt(columns: CandleColumns, index: number): Candle {
  const turnover = columns.turnover?.[index];
  const candle = {
    symbol: columns.symbol,
    period: columns.period,
    time: columns.time[index]!,
    open: columns.open[index]!,
    high: columns.high[index]!,
    low: columns.low[index]!,
    close: columns.close[index]!,
    volume: columns.volume[index]!,
  };
  return turnover === undefined || Number.isNaN(turnover) ? candle : { ...candle, turnover };
}

/** Every bar as a Candle (for callers that keep candles: the paper simulator, tests). */
export function candlesOf(columns: CandleColumns): Candle[] {
  const candles = new Array<Candle>(columns.length);
  for (let index = 0; index < columns.length; index += 1) candles[index] = candleAt(columns, index);
  return candles;
}

/** The first `count` bars, sharing the arrays (no copy). */
export function headOf(columns: CandleColumns, count: number): CandleColumns {
  if (count >= columns.length) return columns;
  const cut = (array: Float64Array): Float64Array => array.subarray(0, count);
  return candleColumns(columns, {
    length: count,
    time: cut(columns.time),
    open: cut(columns.open),
    high: cut(columns.high),
    low: cut(columns.low),
    close: cut(columns.close),
    volume: cut(columns.volume),
    turnover: columns.turnover === undefined ? undefined : cut(columns.turnover),
    pricePlaces: columns.pricePlaces,
    volumePlaces: columns.volumePlaces,
  });
}

type ColumnLabel = Pick<CandleColumns, 'symbol' | 'period' | 'source'>;

/**
 * Every CandleColumns is made here, one literal with its fields in one order: objects spread from labels of
 * different origins get different hidden classes, and the walk's reads of their arrays went megamorphic.
 */
export function candleColumns(label: ColumnLabel, fields: Omit<CandleColumns, keyof ColumnLabel>): CandleColumns {
  return {
    symbol: label.symbol,
    period: label.period,
    source: label.source,
    length: fields.length,
    time: fields.time,
    open: fields.open,
    high: fields.high,
    low: fields.low,
    close: fields.close,
    volume: fields.volume,
    turnover: fields.turnover,
    pricePlaces: fields.pricePlaces,
    volumePlaces: fields.volumePlaces,
  };
}

/** Columns of candles made elsewhere (all of one symbol and period, in time order). */
export function columnsOf(
  candles: readonly Candle[],
  label: { readonly symbol: SecuritySymbol; readonly period: Period; readonly source: string },
): CandleColumns {
  const builder = new ColumnBuilder(candles.length);
  for (const candle of candles)
    builder.push(candle.time, candle.open, candle.high, candle.low, candle.close, candle.volume, candle.turnover ?? Number.NaN);
  return builder.finish(label);
}

/**
 * Fills columns row by row; capacity grows when a guess was short. Loaders write the row addRow gives
 * straight into the arrays (read them after addRow: growing replaces them).
 */
export class ColumnBuilder {
  length = 0;
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  private turnover: Float64Array | undefined;

  constructor(capacity: number) {
    const size = Math.max(1, capacity);
    this.time = new Float64Array(size);
    this.open = new Float64Array(size);
    this.high = new Float64Array(size);
    this.low = new Float64Array(size);
    this.close = new Float64Array(size);
    this.volume = new Float64Array(size);
  }

  /** A builder holding filled columns as they are, every row kept (a loader that checked its rows takes its arrays without a copy). */
  static adopting(columns: Omit<BarColumns, 'symbol' | 'period'> & { readonly turnover: Float64Array | undefined }): ColumnBuilder {
    const builder = new ColumnBuilder(0);
    builder.time = columns.time;
    builder.open = columns.open;
    builder.high = columns.high;
    builder.low = columns.low;
    builder.close = columns.close;
    builder.volume = columns.volume;
    builder.turnover = columns.turnover;
    builder.length = columns.time.length;
    return builder;
  }

  /** Index of a new row, whose fields the caller writes. */
  addRow(): number {
    const at = this.length;
    if (at === this.time.length) this.grow();
    this.length = at + 1;
    return at;
  }

  setTurnover(row: number, turnover: number): void {
    this.turnover ??= new Float64Array(this.time.length).fill(Number.NaN);
    this.turnover[row] = turnover;
  }

  push(time: number, open: number, high: number, low: number, close: number, volume: number, turnover: number): void {
    const at = this.addRow();
    this.time[at] = time;
    this.open[at] = open;
    this.high[at] = high;
    this.low[at] = low;
    this.close[at] = close;
    this.volume[at] = volume;
    if (!Number.isNaN(turnover)) this.setTurnover(at, turnover);
  }

  /** The time of row `index` (so a parser can compare with the previous row). */
  timeAt(index: number): number {
    return this.time[index]!;
  }

  /** The columns, cut to length; decimal places are measured from the values unless the caller counted them. */
  finish(
    label: { readonly symbol: SecuritySymbol; readonly period: Period; readonly source: string },
    places?: { readonly pricePlaces: number; readonly volumePlaces: number },
  ): CandleColumns {
    const length = this.length;
    // A view, not a copy: rows a loader dropped cost their 8 bytes each, a copy would cost time and a peak.
    const cut = (column: Float64Array): Float64Array => (column.length === length ? column : column.subarray(0, length));
    const open = cut(this.open);
    const high = cut(this.high);
    const low = cut(this.low);
    const close = cut(this.close);
    const volume = cut(this.volume);
    return candleColumns(label, {
      length,
      time: cut(this.time),
      open,
      high,
      low,
      close,
      volume,
      turnover: this.turnover === undefined ? undefined : cut(this.turnover),
      pricePlaces: places?.pricePlaces ?? Math.max(placesOfColumn(open), placesOfColumn(high), placesOfColumn(low), placesOfColumn(close)),
      volumePlaces: places?.volumePlaces ?? placesOfColumn(volume),
    });
  }

  private grow(): void {
    const size = Math.ceil(this.time.length * 1.5) + 16;
    const grown = (column: Float64Array): Float64Array => {
      const next = new Float64Array(size);
      next.set(column);
      return next;
    };
    this.time = grown(this.time);
    this.open = grown(this.open);
    this.high = grown(this.high);
    this.low = grown(this.low);
    this.close = grown(this.close);
    this.volume = grown(this.volume);
    if (this.turnover !== undefined) {
      const turnover = new Float64Array(size).fill(Number.NaN);
      turnover.set(this.turnover);
      this.turnover = turnover;
    }
  }
}

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, power) => 10 ** power);

/**
 * The fewest decimal places p whose decimal reads back as `value` (value × 10^p rounds to an integer that,
 * divided by 10^p, is `value` again); 0 for integers, at most 22 (the largest exact power of ten).
 */
export function placesOf(value: number): number {
  if (Number.isInteger(value) || !Number.isFinite(value)) return 0;
  for (let places = 1; places < POWERS_OF_TEN.length; places += 1) {
    const scale = POWERS_OF_TEN[places]!;
    if (Math.round(value * scale) / scale === value) return places;
  }
  return POWERS_OF_TEN.length - 1;
}

function placesOfColumn(column: Float64Array): number {
  let most = 0;
  for (let index = 0; index < column.length; index += 1) {
    const value = column[index]!;
    if (!Number.isInteger(value)) most = Math.max(most, placesOf(value));
  }
  return most;
}
