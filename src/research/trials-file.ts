// The file of finished trials (`--resume FILE`): JSON Lines, a header naming the run, then one trial a line,
// appended as each finishes, so Ctrl-C or a crash loses nothing finished and a rerun continues where it stopped.
import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { InvalidInputError } from '../domain/errors.js';
import type { TrialOutcome } from './trial.js';

/** What must match for a file's trials to count in this run (strategy, space, data hash, costs …). */
export type RunIdentity = Readonly<Record<string, unknown>>;

export interface TrialsFile {
  /** Trials already in the file (empty for a new file). */
  readonly finished: readonly TrialOutcome[];
  append(outcome: TrialOutcome): void;
  close(): void;
}

export function openTrialsFile(path: string, identity: RunIdentity): TrialsFile {
  const finished: TrialOutcome[] = [];
  const fresh = !existsSync(path) || readFileSync(path, 'utf8').trim() === '';
  if (!fresh) {
    const lines = readFileSync(path, 'utf8').split('\n');
    const header = parseLine(path, lines[0]!, 1) as { run?: RunIdentity };
    const differing = Object.keys({ ...identity, ...header.run }).filter(
      (key) => JSON.stringify(identity[key]) !== JSON.stringify(header.run?.[key]),
    );
    if (header.run === undefined || differing.length > 0)
      throw new InvalidInputError(
        `${path}: its trials belong to another run (differs in ${differing.join(', ') || 'its header'}); give the same strategy, params, data and settings, or another --resume file`,
        'resume',
      );
    const seen = new Set<number>();
    lines.slice(1).forEach((line, offset) => {
      if (line.trim() === '') return;
      // A line cut short by a kill mid-write is the last one: dropped, that trial runs again.
      if (offset === lines.length - 2 && !line.endsWith('}')) return;
      const outcome = parseLine(path, line, offset + 2) as TrialOutcome;
      if (!seen.has(outcome.index)) finished.push(outcome);
      seen.add(outcome.index);
    });
  }
  // Rewritten whole, so a line cut short by a kill never sits in the middle of the file; written beside it
  // and renamed over it, so a kill while rewriting leaves the old file whole.
  const rewritten = `${path}.${process.pid}.tmp`;
  const lines = [{ kind: 'trader-optimize-trials', version: 1, run: identity }, ...finished].map((line) => `${JSON.stringify(line)}\n`);
  writeFileSync(rewritten, lines.join(''));
  renameSync(rewritten, path);
  const fd = openSync(path, 'a');
  return {
    finished,
    append: (outcome) => {
      writeSync(fd, `${JSON.stringify(outcome)}\n`);
    },
    close: () => closeSync(fd),
  };
}

function parseLine(path: string, line: string, number: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new InvalidInputError(`${path}:${number}: not a trials file line (JSON expected)`, 'resume');
  }
}

/** Writes finished trials to a new file next to `path` (path, or path with .1, .2 … when taken); returns where. */
export function saveTrials(path: string, identity: RunIdentity, outcomes: readonly TrialOutcome[]): string {
  let target = path;
  for (let suffix = 1; existsSync(target); suffix += 1) target = `${path}.${suffix}`;
  const file = openTrialsFile(target, identity);
  for (const outcome of outcomes) file.append(outcome);
  file.close();
  return target;
}
