// The file of finished trials (`--resume FILE`): JSON Lines, a header naming the run, then one trial a line,
// appended as each finishes, so Ctrl-C or a crash loses nothing finished and a rerun continues where it stopped.
import { closeSync, existsSync, openSync, readSync, writeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { InvalidInputError } from '../domain/errors.js';
import { writeChunksToFile } from '../files/chunked-write.js';
import { OutcomeTable } from './outcome-table.js';
import { resumeRefusal, type RunIdentity } from './resume-refusal.js';
import type { TrialOutcome } from './trial.js';

export type { RunIdentity };

export interface TrialsFile {
  /** Trials already in the file (empty for a new file). */
  readonly finished: OutcomeTable;
  append(outcome: TrialOutcome): void;
  close(): void;
}

/**
 * The file format's version: 2 since the overfitting statistics took the trials' returns over the risk-free
 * rate (a version 1 file of a run with one holds plain returns, which would mix with the new ones).
 */
const VERSION = 2;

export function openTrialsFile(path: string, identity: RunIdentity): TrialsFile {
  const finished = new OutcomeTable();
  const seen = new Set<number>();
  let header: { run?: RunIdentity; version?: number } | undefined;
  let last: { line: string; number: number } | undefined;
  const take = (line: string, number: number): void => {
    if (header === undefined) {
      header = parseLine(path, line, number) as { run?: RunIdentity; version?: number };
      const refusal = resumeRefusal(path, header.run, identity);
      if (refusal !== undefined) throw refusal;
      if ((header.version ?? 1) < VERSION && riskFreeRateOf(identity) !== 0)
        throw new InvalidInputError(
          `${path} was written by an earlier trader, whose overfitting statistics left --risk-free-rate out of the trials' returns; ` +
            `its trials cannot be ranked with this run's: delete it or give another --resume file to start afresh`,
          'resume',
        );
      return;
    }
    const outcome = withFailureField(parseLine(path, line, number) as TrialOutcome);
    if (seen.has(outcome.index)) return;
    try {
      finished.add(outcome);
    } catch (error) {
      throw new InvalidInputError(`${path}:${number}: not a trial of this run (${(error as Error).message})`, 'resume');
    }
    seen.add(outcome.index);
  };
  if (existsSync(path))
    forEachLine(path, (line, number) => {
      if (line.trim() === '') return;
      if (last !== undefined) take(last.line, last.number);
      last = { line, number };
    });
  // A last line cut short by a kill mid-write is dropped: that trial runs again.
  if (last !== undefined && (header === undefined || last.line.endsWith('}'))) take(last.line, last.number);
  // Rewritten whole (beside it, then renamed over it), so a line cut short by a kill never sits in the middle.
  writeChunksToFile(path, fileLines(identity, finished));
  const appending = openSync(path, 'a');
  return {
    finished,
    append: (outcome) => {
      writeSync(appending, `${JSON.stringify(outcome)}\n`);
    },
    close: () => closeSync(appending),
  };
}

// Read a megabyte at a time (and written in pieces): a big grid's file is larger than the longest string V8 makes.
const CHUNK = 1 << 20;

function forEachLine(path: string, visit: (line: string, number: number) => void): void {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    let number = 0;
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      const lines = (rest + decoder.write(buffer.subarray(0, read))).split('\n');
      rest = lines.pop()!;
      for (const line of lines) visit(line, (number += 1));
    }
    rest += decoder.end();
    if (rest !== '') visit(rest, number + 1);
  } finally {
    closeSync(fd);
  }
}

function* fileLines(identity: RunIdentity, finished: OutcomeTable): Generator<string> {
  yield `${JSON.stringify({ kind: 'trader-optimize-trials', version: VERSION, run: identity })}\n`;
  for (const outcome of finished) yield `${JSON.stringify(outcome)}\n`;
}

function parseLine(path: string, line: string, number: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw new InvalidInputError(`${path}:${number}: not a trials file line (JSON expected)`, 'resume');
  }
}

/** Writes finished trials to a new file next to `path` (path, or path with .1, .2 … when taken); returns where. */
export function saveTrials(path: string, identity: RunIdentity, outcomes: Iterable<TrialOutcome>): string {
  let target = path;
  for (let suffix = 1; existsSync(target); suffix += 1) target = `${path}.${suffix}`;
  const file = openTrialsFile(target, identity);
  for (const outcome of outcomes) file.append(outcome);
  file.close();
  return target;
}

/** Files written before trials said whether their strategy failed hold trials that ran to the end. */
function withFailureField(outcome: TrialOutcome): TrialOutcome {
  if (outcome.metrics === undefined || 'failure' in outcome.metrics) return outcome;
  return { ...outcome, metrics: { ...(outcome.metrics as TrialOutcome['metrics']), failure: null } };
}

function riskFreeRateOf(identity: RunIdentity): number {
  const settings = identity['settings'] as { readonly riskFreeRate?: unknown } | undefined;
  return typeof settings?.riskFreeRate === 'number' ? settings.riskFreeRate : 0;
}
