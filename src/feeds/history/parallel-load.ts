// Reads many candle files (CSV or Parquet) on two threads: this one and a helper (parse-worker.ts), each taking the next file
// not yet taken, so a slow file does not hold the other thread up. Results come back in file order; the
// first file (in that order) that cannot be read throws here, with the same error a one-thread load gives,
// because files the helper could not read, or never sent back, are read again on this thread.
import { statSync } from 'node:fs';
import { type CandleColumns, candleColumns } from './candle-columns.js';
import type { CandleFileOptions, LoadedColumns } from './loaded-columns.js';

export interface CandleFileJob {
  readonly path: string;
  readonly options: CandleFileOptions;
}

/** What the helper thread is given. */
export interface ParseJobs {
  readonly files: readonly CandleFileJob[];
  /** One Int32: the index of the next file to take. */
  readonly counter: SharedArrayBuffer;
}

/** What it sends per file; `fields` undefined when it could not read the file. */
export interface ParsedFile {
  readonly index: number;
  readonly fields: Omit<CandleColumns, 'symbol' | 'source'> | undefined;
  readonly problems: LoadedColumns['problems'];
  readonly skippedRows: number;
}

/** Below this many bytes in all, starting the helper costs more than it saves. */
export const PARALLEL_MIN_BYTES = 8 << 20;

/** Whether `files` are worth a helper thread: several, big enough in all. */
export function worthParallel(files: readonly CandleFileJob[]): boolean {
  if (files.length < 2) return false;
  let bytes = 0;
  for (const file of files) bytes += statSync(file.path, { throwIfNoEntry: false })?.size ?? 0;
  return bytes >= PARALLEL_MIN_BYTES;
}

/** How a load used its threads: files read by the helper, and why it could not help, if it could not. */
export interface LoadThreads {
  readonly threads: 1 | 2;
  readonly helperFiles: number;
  readonly helperFailure?: string;
}

type Outcome = { readonly loaded: LoadedColumns } | { readonly error: unknown };

/**
 * Reads every file (CSV or Parquet) with `read` here and on a helper thread; the results in file order. `fromHelper`
 * is told each file the helper sends back (read or not), as this thread takes it. Once `signal` aborts, no
 * file is begun here, the helper is stopped, and this rejects with the signal's reason.
 */
export async function readInParallel(
  files: readonly CandleFileJob[],
  read: (file: CandleFileJob) => Promise<LoadedColumns>,
  fromHelper?: (index: number, read: boolean) => void,
  signal?: AbortSignal,
): Promise<{ readonly loaded: LoadedColumns[]; readonly threads: LoadThreads }> {
  const counter = new SharedArrayBuffer(4);
  const next = new Int32Array(counter);
  const outcomes = new Array<Outcome | undefined>(files.length);
  const jobs: ParseJobs = { files, counter };
  // Imported here, not at the top: a process started from a start-up snapshot that set node:worker_threads
  // up while it was built starts workers that fail at once (their process.cwd() reads state the snapshot
  // could not keep).
  const { Worker } = await import('node:worker_threads');
  const helper = new Worker(new URL('./parse-worker-entry.mjs', import.meta.url), { workerData: jobs });
  let helperFiles = 0;
  let helperDone = false;
  let helperFailure: string | undefined;
  let stopWaiting = (): void => undefined;
  const helped = new Promise<void>((resolve) => {
    stopWaiting = resolve;
    helper.on('message', (message: ParsedFile | 'done') => {
      if (message === 'done') {
        helperDone = true;
        return resolve();
      }
      fromHelper?.(message.index, message.fields !== undefined);
      if (message.fields !== undefined) helperFiles += 1;
      const file = files[message.index]!;
      if (message.fields !== undefined)
        outcomes[message.index] = {
          loaded: {
            columns: candleColumns(
              { symbol: file.options.symbol, source: file.options.source, period: message.fields.period },
              message.fields,
            ),
            problems: message.problems,
            skippedRows: message.skippedRows,
          },
        };
    });
    helper.on('error', (error) => {
      if (helperDone) return;
      helperFailure = error instanceof Error ? error.message : String(error);
      resolve();
    });
    helper.on('exit', (code) => {
      if (!helperDone) helperFailure ??= `it stopped (exit code ${code}) before it was done`;
      resolve();
    });
  });
  signal?.addEventListener('abort', stopWaiting, { once: true });
  if (signal?.aborted === true) stopWaiting();
  try {
    for (let index = Atomics.add(next, 0, 1); index < files.length && signal?.aborted !== true; index = Atomics.add(next, 0, 1)) {
      try {
        outcomes[index] = { loaded: await read(files[index]!) };
      } catch (error) {
        outcomes[index] = { error };
      }
    }
    await helped;
  } finally {
    signal?.removeEventListener('abort', stopWaiting);
    void helper.terminate();
  }
  signal?.throwIfAborted();
  const loaded: LoadedColumns[] = [];
  for (let index = 0; index < files.length; index += 1) {
    const outcome = outcomes[index] ?? { loaded: await read(files[index]!) };
    if ('error' in outcome) throw outcome.error;
    loaded.push(outcome.loaded);
  }
  return { loaded, threads: { threads: 2, helperFiles, ...(helperFailure === undefined ? {} : { helperFailure }) } };
}
