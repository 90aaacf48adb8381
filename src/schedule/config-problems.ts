// Config problems with their path (jobs[1].cron) and source line, gathered so all are reported at once.
import type { Document, LineCounter } from 'yaml';
import { isMap, isNode, isPair, isScalar, isSeq } from 'yaml';
import { InvalidInputError } from '../domain/errors.js';

export interface ConfigProblem {
  /** Dotted path into the file, e.g. "jobs[1].cron" ("" for the whole file). */
  readonly path: string;
  /** 1-based line in the file, when known. */
  readonly line: number | undefined;
  readonly message: string;
}

export type PathSegment = string | number;

/** A config file that cannot be used; `problems` lists every issue found, each with its path. */
export class ScheduleConfigError extends InvalidInputError {
  readonly problems: readonly ConfigProblem[];
  readonly file: string;

  constructor(file: string, problems: readonly ConfigProblem[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    const lines = problems.map((problem) => `  ${describeProblem(file, problem)}`);
    super(`invalid schedule config ${file} (${count}):\n${lines.join('\n')}`, problems[0]?.path, { file });
    this.problems = problems;
    this.file = file;
  }
}

/** "schedule.yaml:14: jobs[1].cron: invalid cron expression …" */
export function describeProblem(file: string, problem: ConfigProblem): string {
  const where = problem.line === undefined ? file : `${file}:${problem.line}`;
  return problem.path === '' ? `${where}: ${problem.message}` : `${where}: ${problem.path}: ${problem.message}`;
}

export function formatPath(path: readonly PathSegment[]): string {
  return path.reduce<string>(
    (text, segment) => (typeof segment === 'number' ? `${text}[${segment}]` : text === '' ? segment : `${text}.${segment}`),
    '',
  );
}

/** Finds the line of the deepest node on `path` in a parsed YAML (or JSON) document. */
export function lineOf(document: Document, lineCounter: LineCounter, path: readonly PathSegment[]): number | undefined {
  let node: unknown = document.contents;
  let offset = isNode(node) ? node.range?.[0] : undefined;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === segment);
      if (pair === undefined) break;
      offset = isNode(pair.key) ? pair.key.range?.[0] : offset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      if (!isNode(node)) break;
      offset = node.range?.[0];
    } else {
      break;
    }
  }
  return offset === undefined ? undefined : lineCounter.linePos(offset).line;
}
