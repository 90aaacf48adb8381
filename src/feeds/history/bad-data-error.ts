// Problems found in candle data, each pinned to a file and line so the user can fix the source. Bad data is
// bad input: the CLI exits with status 2.
import { InvalidInputError } from '../../domain/errors.js';

export interface DataProblem {
  readonly source: string;
  /** 1-based line in the file (the header is line 1), or row of a Parquet file (the first is 1). */
  readonly line: number;
  readonly reason: string;
  /** 'row' for Parquet rows; lines otherwise. */
  readonly unit?: 'row';
}

export type BadRowPolicy = 'skip' | 'fail';

export function describeProblem(problem: DataProblem): string {
  if (problem.line === 0) return `${problem.source}: ${problem.reason}`;
  return problem.unit === 'row'
    ? `${problem.source} row ${problem.line}: ${problem.reason}`
    : `${problem.source}:${problem.line}: ${problem.reason}`;
}

/** Why a bar's prices cannot be (high below low, open or close outside the range), or undefined. */
export function barRangeProblem(open: number, high: number, low: number, close: number): string | undefined {
  if (high < low) return `high ${high} is below low ${low}`;
  if (open > high || open < low) return `open ${open} is outside the bar's range [${low}, ${high}]`;
  if (close > high || close < low) return `close ${close} is outside the bar's range [${low}, ${high}]`;
  return undefined;
}

export class BadDataError extends InvalidInputError {
  constructor(
    readonly problems: readonly DataProblem[],
    readonly totalProblems: number,
    /** What is wrong and what to do, before the listed problems; by default a count of bad rows. */
    summary = `${totalProblems} bad row${totalProblems === 1 ? '' : 's'} in candle data (use --on-bad-row skip to drop them):`,
  ) {
    const more = totalProblems > problems.length ? `\n… and ${totalProblems - problems.length} more` : '';
    super(`${summary}\n${problems.map(describeProblem).join('\n')}${more}`, 'data', { problems: totalProblems });
  }
}

/**
 * A file whose rows are out of time order (most often newest first): skipping the rows that go backwards
 * would drop most of it, so the advice is to sort it, whatever the bad-row policy.
 */
export function unsortedRowsError(source: string, backwardRows: number, rows: number, problems: readonly DataProblem[]): BadDataError {
  const unsorted = problems.filter((problem) => problem.reason.startsWith('time goes backwards'));
  const summary =
    `${source}: the rows are not in time order (${backwardRows.toLocaleString('en-US')} of ${rows.toLocaleString('en-US')} rows ` +
    `are earlier than a row above them); sort the file by time, oldest first${
      /\.parquet$/i.test(source) ? '' : ', e.g. (head -n 1 FILE && tail -n +2 FILE | sort) > sorted.csv for ISO dates'
    } — skipping them would drop most of the file:`;
  return new BadDataError(unsorted.slice(0, 3), backwardRows, summary);
}

/** A number whose text no float holds exactly (`value` is the float nearest it). */
export function inexactProblem(name: string, text: string, value: number): string {
  return `${name} "${text}" has more digits than a float holds: it would be read as ${String(value)}`;
}

/** Why a price or volume was refused: none, not a number, or a number out of its range (prices above 0, volumes 0 or more). */
export function valueProblem(name: string, text: string, value: number): string {
  if (text.trim() === '') return emptyCellProblem(name);
  if (!Number.isFinite(value)) return `unparseable ${name} "${text}"`;
  return name === 'volume' ? `negative volume "${text}"` : `${name} "${text}": a price must be greater than 0`;
}

/** A row's cell that holds nothing (a CSV cell left empty, a Parquet null). */
export function emptyCellProblem(name: string): string {
  return `no ${name} (an empty cell)`;
}
