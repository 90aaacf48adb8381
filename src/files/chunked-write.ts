// Writes text given in pieces, small pieces gathered into blocks of up to 64 KB (large ones go as they come,
// not copied into a block): a file through one descriptor, or a stream honouring its back-pressure (stdout
// into a pipe).
import { closeSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { once } from 'node:events';
import type { Writable } from 'node:stream';

const BLOCK = 1 << 16;

function* blocks(chunks: Iterable<string>): Generator<string> {
  let pending: string[] = [];
  let size = 0;
  for (const chunk of chunks) {
    if (chunk.length >= BLOCK) {
      if (size > 0) yield pending.join('');
      pending = [];
      size = 0;
      yield chunk;
      continue;
    }
    pending.push(chunk);
    size += chunk.length;
    if (size >= BLOCK) {
      yield pending.join('');
      pending = [];
      size = 0;
    }
  }
  if (size > 0) yield pending.join('');
}

/**
 * Writes the pieces to a file. A regular file (or a new one) is written beside its place and renamed over
 * it, so a run stopped while writing leaves the previous file whole rather than a cut one; anything else (a
 * pipe, a device) is written in place.
 */
export function writeChunksToFile(path: string, chunks: Iterable<string>): void {
  const existing = statSync(path, { throwIfNoEntry: false });
  const replace = existing === undefined || existing.isFile();
  const target = replace ? join(dirname(path), `.${basename(path)}.${process.pid}.tmp`) : path;
  let fd: number;
  try {
    fd = openSync(target, 'w');
  } catch (error) {
    throw writeFailure(path, error);
  }
  try {
    for (const block of blocks(chunks)) {
      const bytes = Buffer.from(block, 'utf8');
      for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
    }
    closeSync(fd);
    if (replace) renameSync(target, path);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // Closed already (the rename failed), or failing as the write did: the write's error is the one to tell.
    }
    if (replace) rmSync(target, { force: true });
    throw writeFailure(path, error);
  }
}

/** One text to a file, as writeChunksToFile writes (beside its place, then renamed over it). */
export function writeTextFile(path: string, text: string): void {
  writeChunksToFile(path, [text]);
}

const REASONS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'over the disk quota',
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  EISDIR: 'it is a folder',
};

// A system error names the user's path (not the temporary file beside it); other errors (a failure making the
// text) pass as they are.
function writeFailure(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !code.startsWith('E')) return error;
  return new Error(`cannot write ${path}: ${REASONS[code] ?? (error as Error).message}`, { cause: error });
}

/**
 * Writes the pieces to a stream, waiting whenever it asks to. A reader that has gone (`… | head`: EPIPE)
 * ends the writing without an error: it asked for no more.
 */
export async function writeChunks(stream: Writable, chunks: Iterable<string>): Promise<void> {
  try {
    for (const block of blocks(chunks)) {
      if (stream.destroyed) return;
      if (!stream.write(block)) await once(stream, 'drain');
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
  }
}
