// Problems found in candle data, each pinned to a file and line so the user can fix the source.
import { TraderError } from '../../domain/errors.js';

export interface DataProblem {
  readonly source: string;
  /** 1-based line in the file; the header is line 1. */
  readonly line: number;
  readonly reason: string;
}

export type BadRowPolicy = 'skip' | 'fail';

export function describeProblem(problem: DataProblem): string {
  return `${problem.source}:${problem.line}: ${problem.reason}`;
}

export class BadDataError extends TraderError {
  constructor(
    readonly problems: readonly DataProblem[],
    readonly totalProblems: number,
  ) {
    const more = totalProblems > problems.length ? `\n… and ${totalProblems - problems.length} more` : '';
    super(
      'BAD_DATA',
      `${totalProblems} bad row${totalProblems === 1 ? '' : 's'} in candle data (use --on-bad-row skip to drop them):\n` +
        problems.map(describeProblem).join('\n') +
        more,
    );
  }
}
