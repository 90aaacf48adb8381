// Reads files into one buffer reused from file to file: a folder of candle files then touches its memory once,
// instead of fresh pages for every file (first touches are what reading costs most on these machines). A load
// that a Ctrl-C may stop reads a piece at a time into a buffer of its own instead.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { nextPiece, PIECE_BYTES } from './load-pieces.js';

let scratch = Buffer.allocUnsafe(0);

/**
 * The whole file's bytes, in the shared buffer: valid until the next call, so read them before reading
 * another file (and keep no view of them).
 */
export function readIntoScratch(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (scratch.length < size) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2));
    let read = 0;
    while (read < size) {
      const got = readSync(fd, scratch, read, size - read, read);
      if (got === 0) break;
      read += got;
    }
    return scratch.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * The whole file's bytes in a buffer of their own (a load that waits between pieces may meet another one),
 * read a piece at a time; throws the reason `signal` was aborted with.
 */
export async function readInPieces(path: string, signal: AbortSignal): Promise<Uint8Array> {
  const fd = openSync(path, 'r');
  try {
    const bytes = Buffer.allocUnsafe(fstatSync(fd).size);
    let read = 0;
    while (read < bytes.length) {
      const got = readSync(fd, bytes, read, Math.min(PIECE_BYTES, bytes.length - read), read);
      if (got === 0) break;
      read += got;
      await nextPiece(signal);
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** Lets the shared buffer go (after a batch of files: a single big file would otherwise stay held). */
export function releaseScratch(): void {
  scratch = Buffer.allocUnsafe(0);
}

/** The file's first line (without its line break), reading at most `limit` bytes. */
export function readFirstLine(path: string, limit = 65_536): string {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.allocUnsafe(limit);
    const got = readSync(fd, head, 0, limit, 0);
    let end = head.subarray(0, got).indexOf(10);
    if (end < 0) end = got;
    if (end > 0 && head[end - 1] === 13) end -= 1;
    return head.toString('utf8', 0, end);
  } finally {
    closeSync(fd);
  }
}
