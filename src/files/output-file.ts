// Files a command was asked to write (--json FILE, --report FILE…), checked before the work that fills them:
// a run of minutes must not end on a path it cannot write.
import { accessSync, constants, realpathSync, type Stats, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { InvalidInputError } from '../domain/errors.js';

/** What a run reads, by what it is ("the strategy file", "the data"…): no output may be written over it. */
export type RunInputs = readonly (readonly [what: string, path: string | undefined])[];

/** Candle files a data folder holds: an output of that kind in it would be read as data next time. */
const DATA_FILE_EXTENSIONS = new Set(['.csv', '.parquet']);

/**
 * Checks each flag's file (undefined and "-", stdout, are skipped): the first that cannot be written, that
 * another flag names too, or that is one of the run's inputs (its strategy, data, risk config; a candle file
 * in its data folder) is an InvalidInputError naming the flag, the path and why.
 */
export function checkOutputFiles(files: readonly (readonly [flag: string, path: string | undefined])[], inputs: RunInputs = []): void {
  const taken = new Map<string, string>();
  for (const [flag, path] of files) {
    if (path === undefined || path === '-') continue;
    refuse(flag, path, outputFileProblem(path));
    const file = canonical(path);
    const other = taken.get(file);
    refuse(flag, path, other === undefined ? undefined : `${other} names the same file`);
    taken.set(file, flag);
    for (const [what, input] of inputs) if (input !== undefined) refuse(flag, path, overwrites(file, what, input));
  }
}

function overwrites(file: string, what: string, input: string): string | undefined {
  const read = canonical(input);
  if (file === read) return `is ${what}, which this run reads`;
  const folder = statOf(read);
  const inFolder = folder !== undefined && folder !== 'not a folder' && folder.isDirectory() && dirname(file) === read;
  return inFolder && DATA_FILE_EXTENSIONS.has(extname(file).toLowerCase())
    ? `is in the folder of ${what} (${input}), where a .csv or .parquet file is read as candles`
    : undefined;
}

/** The path with symbolic links resolved (of its folder, when the file is not there yet). */
function canonical(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    try {
      return join(realpathSync(dirname(absolute)), basename(absolute));
    } catch {
      return absolute;
    }
  }
}

/**
 * Why `path` cannot be written as a file, or undefined when it can. A file is written beside its place and
 * renamed over it (files/chunked-write.ts), so its folder is what must be writable; a pipe or a device is
 * written in place.
 */
export function outputFileProblem(path: string): string | undefined {
  if (path.trim() === '') return 'needs a file name';
  const existing = statOf(path);
  if (existing === 'not a folder') return `${notAFolder(path)} is not a folder`;
  if (existing?.isDirectory()) return 'is a folder: give a file name';
  if (existing !== undefined && !existing.isFile()) return canAccess(path, constants.W_OK) ? undefined : 'is not writable';
  const folder = dirname(resolve(path));
  const parent = statOf(folder);
  if (parent === undefined) return `the folder ${folder} does not exist`;
  if (parent === 'not a folder' || !parent.isDirectory()) return `${notAFolder(path)} is not a folder`;
  return canAccess(folder, constants.W_OK | constants.X_OK) ? undefined : `cannot create files in ${folder}`;
}

/**
 * A folder a command will write files into (--out DIR), made when missing: an InvalidInputError naming the
 * flag when it is a file, sits below one, or cannot be made or written in.
 */
export function checkOutputFolder(flag: string, path: string | undefined): void {
  if (path !== undefined) refuse(flag, path, outputFolderProblem(path));
}

function refuse(flag: string, path: string, problem: string | undefined): void {
  if (problem !== undefined) throw new InvalidInputError(`${flag} ${path}: ${problem}`, flag);
}

export function outputFolderProblem(path: string): string | undefined {
  if (path.trim() === '') return 'needs a folder name';
  const existing = statOf(path);
  if (existing === 'not a folder') return `${notAFolder(path)} is not a folder`;
  if (existing !== undefined)
    return !existing.isDirectory()
      ? 'is a file, not a folder'
      : canAccess(path, constants.W_OK | constants.X_OK)
        ? undefined
        : 'is not writable';
  // Made with its missing parents: the nearest folder that exists must take them.
  let ancestor = dirname(resolve(path));
  let stats = statOf(ancestor);
  while (stats === undefined) {
    ancestor = dirname(ancestor);
    stats = statOf(ancestor);
  }
  if (stats === 'not a folder' || !stats.isDirectory()) return `${notAFolder(path)} is not a folder`;
  return canAccess(ancestor, constants.W_OK | constants.X_OK) ? undefined : `cannot create folders in ${ancestor}`;
}

/** The path's stats, undefined when nothing is there, or 'not a folder' when a part of it is a file. */
function statOf(path: string): Stats | 'not a folder' | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return 'not a folder';
    throw error;
  }
}

/** The first ancestor of `path` that is not a folder (a file where the path needs one). */
function notAFolder(path: string): string {
  let folder = dirname(resolve(path));
  while (dirname(folder) !== folder) {
    const stats = statOf(folder);
    if (stats !== 'not a folder' && stats !== undefined && !stats.isDirectory()) return folder;
    folder = dirname(folder);
  }
  return folder;
}

function canAccess(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}
