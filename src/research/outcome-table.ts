// The finished trials of a research run as typed columns: a big grid keeps hundreds of thousands of them,
// and as objects they took several times the memory. Rows are made as TrialOutcome objects only when asked
// for (the top N, the reports, the trials file), equal to the outcomes that went in.
import type { ParamValue } from '../strategy/params.js';
import type { TrialMetrics } from './objective.js';
import type { ReturnStats } from './return-stats.js';
import type { TrialOutcome } from './trial.js';

type Cell = ParamValue | null;

/**
 * One field over every row: numbers as they are (null as NaN), texts and booleans as codes into a list of
 * the values seen; a field holding numbers and texts (a param of several types) codes its numbers too.
 */
class Column {
  values: Float64Array;
  private coding = false;
  private readonly coded: Cell[] = [];
  private readonly codes = new Map<Cell, number>();

  constructor(
    readonly name: string,
    capacity: number,
  ) {
    this.values = new Float64Array(capacity);
  }

  /** Sets the value of the row after the `row` rows already set. */
  set(row: number, value: unknown): void {
    // NaN is kept as null, as the JSON of the result writes it.
    if (value === null || (typeof value === 'number' && Number.isNaN(value))) {
      this.values[row] = Number.NaN;
      return;
    }
    if (typeof value !== 'number' && typeof value !== 'string' && typeof value !== 'boolean')
      throw new Error(`trial outcome field ${this.name}: ${String(value)} is not a number, text or boolean`);
    if (typeof value !== 'number' && !this.coding) this.startCoding(row);
    this.values[row] = this.coding ? this.codeOf(value) : (value as number);
  }

  get(row: number): Cell {
    const value = this.values[row]!;
    if (Number.isNaN(value)) return null;
    return this.coding ? this.coded[value]! : value;
  }

  /** The value as a number when it is one (null otherwise). */
  number(row: number): number | null {
    const value = this.get(row);
    return typeof value === 'number' ? value : null;
  }

  grow(capacity: number): void {
    const values = new Float64Array(capacity);
    values.set(this.values);
    this.values = values;
  }

  private startCoding(rows: number): void {
    this.coding = true;
    for (let row = 0; row < rows; row += 1) if (!Number.isNaN(this.values[row]!)) this.values[row] = this.codeOf(this.values[row]!);
  }

  private codeOf(value: ParamValue): number {
    let code = this.codes.get(value);
    if (code === undefined) this.codes.set(value, (code = this.coded.push(value) - 1));
    return code;
  }
}

const STAT_FIELDS = ['count', 'mean', 'std', 'skewness', 'kurtosis'] as const;

export class OutcomeTable implements Iterable<TrialOutcome> {
  private rows = 0;
  private capacity = 0;
  private indexes = new Float64Array(0);
  private params: Column[] = [];
  private metrics: Column[] = [];
  private stats: Column[] = [];
  private blocks = 0;
  /** Block sums and squares, row-major: row r's block b at r·blocks + b. */
  private sums = new Float64Array(0);
  private squares = new Float64Array(0);
  private readonly metricColumn = new Map<string, Column>();

  static of(outcomes: Iterable<TrialOutcome>): OutcomeTable {
    const table = new OutcomeTable();
    for (const outcome of outcomes) table.add(outcome);
    return table;
  }

  get length(): number {
    return this.rows;
  }

  add(outcome: TrialOutcome): void {
    if (this.rows === 0) this.shape(outcome);
    else if (Object.keys(outcome.metrics).length !== this.metrics.length || Object.keys(outcome.params).length !== this.params.length)
      throw new Error(`trial ${outcome.index}: its params or metrics are not those of the table's first trial`);
    if (this.rows === this.capacity) this.grow(Math.max(64, this.capacity * 2));
    const row = this.rows;
    this.indexes[row] = outcome.index;
    for (const column of this.params) column.set(row, this.field(outcome.params, column.name, 'params'));
    for (const column of this.metrics) column.set(row, this.field(outcome.metrics, column.name, 'metrics'));
    for (const column of this.stats) column.values[row] = outcome.stats[column.name as (typeof STAT_FIELDS)[number]];
    const { blockSums, blockSquares } = outcome.stats;
    if (blockSums.length !== this.blocks || blockSquares.length !== this.blocks)
      throw new Error(`trial ${outcome.index}: ${blockSums.length} return blocks, the table's trials have ${this.blocks}`);
    this.sums.set(blockSums, row * this.blocks);
    this.squares.set(blockSquares, row * this.blocks);
    this.rows += 1;
  }

  /** The trial index (grid position) of a row. */
  indexAt(row: number): number {
    return this.indexes[row]!;
  }

  /** A metric of a row as a number, null when it is null or not a number. */
  metric(row: number, name: keyof TrialMetrics): number | null {
    return this.metricColumn.get(name)?.number(row) ?? null;
  }

  /** Why a row's strategy failed (one line), or null when it ran to the end. */
  failure(row: number): string | null {
    const value = this.metricColumn.get('failure')?.get(row);
    return typeof value === 'string' ? value : null;
  }

  paramNames(): string[] {
    return this.params.map((column) => column.name);
  }

  param(row: number, name: string): ParamValue | undefined {
    return this.params.find((column) => column.name === name)?.get(row) ?? undefined;
  }

  /** The row as the outcome that went in. */
  at(row: number): TrialOutcome {
    if (!(row >= 0 && row < this.rows)) throw new RangeError(`row ${row} of ${this.rows}`);
    const start = row * this.blocks;
    const stats: Record<string, unknown> = {};
    for (const column of this.stats) stats[column.name] = column.values[row];
    stats.blockSums = Array.from(this.sums.subarray(start, start + this.blocks));
    stats.blockSquares = Array.from(this.squares.subarray(start, start + this.blocks));
    return {
      index: this.indexes[row]!,
      params: rowOf(this.params, row) as Record<string, ParamValue>,
      metrics: rowOf(this.metrics, row) as unknown as TrialMetrics,
      stats: stats as unknown as ReturnStats,
    };
  }

  /** One of a row's return statistics. */
  stat(row: number, name: (typeof STAT_FIELDS)[number]): number {
    return this.stats[STAT_FIELDS.indexOf(name)]!.values[row]!;
  }

  /** The return statistics of a row (block sums as views of the table: read, do not keep). */
  statsAt(row: number): ReturnStats {
    const start = row * this.blocks;
    const [count, mean, std, skewness, kurtosis] = this.stats.map((column) => column.values[row]!);
    return {
      count: count!,
      mean: mean!,
      std: std!,
      skewness: skewness!,
      kurtosis: kurtosis!,
      blockSums: this.sums.subarray(start, start + this.blocks) as unknown as readonly number[],
      blockSquares: this.squares.subarray(start, start + this.blocks) as unknown as readonly number[],
    };
  }

  /** Orders the rows by trial index, a column at a time (and trims the columns to the rows). */
  sortByIndex(): void {
    const order = Int32Array.from({ length: this.rows }, (_, row) => row).sort((a, b) => this.indexes[a]! - this.indexes[b]!);
    this.indexes = gather(this.indexes, order, 1);
    for (const column of [...this.params, ...this.metrics, ...this.stats]) column.values = gather(column.values, order, 1);
    this.sums = gather(this.sums, order, this.blocks);
    this.squares = gather(this.squares, order, this.blocks);
    this.capacity = this.rows;
  }

  *[Symbol.iterator](): Iterator<TrialOutcome> {
    for (let row = 0; row < this.rows; row += 1) yield this.at(row);
  }

  private shape(first: TrialOutcome): void {
    this.params = Object.keys(first.params).map((name) => new Column(name, 0));
    this.metrics = Object.keys(first.metrics).map((name) => new Column(name, 0));
    this.stats = STAT_FIELDS.map((name) => new Column(name, 0));
    for (const column of this.metrics) this.metricColumn.set(column.name, column);
    this.blocks = first.stats.blockSums.length;
  }

  private field(record: object, name: string, part: string): unknown {
    const value = (record as Record<string, unknown>)[name];
    if (value === undefined) throw new Error(`trial outcome without ${part}.${name}`);
    return value;
  }

  private grow(capacity: number): void {
    const indexes = new Float64Array(capacity);
    indexes.set(this.indexes);
    this.indexes = indexes;
    for (const column of [...this.params, ...this.metrics, ...this.stats]) column.grow(capacity);
    const sums = new Float64Array(capacity * this.blocks);
    sums.set(this.sums);
    this.sums = sums;
    const squares = new Float64Array(capacity * this.blocks);
    squares.set(this.squares);
    this.squares = squares;
    this.capacity = capacity;
  }
}

/** Rows of `width` values each, in `order`. */
function gather(values: Float64Array, order: Int32Array, width: number): Float64Array<ArrayBuffer> {
  const gathered = new Float64Array(order.length * width);
  for (let at = 0; at < order.length; at += 1) {
    const from = order[at]! * width;
    for (let offset = 0; offset < width; offset += 1) gathered[at * width + offset] = values[from + offset]!;
  }
  return gathered;
}

function rowOf(columns: readonly Column[], row: number): Record<string, Cell> {
  const record: Record<string, Cell> = {};
  for (const column of columns) record[column.name] = column.get(row);
  return record;
}
