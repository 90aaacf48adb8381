// The content hash of a file as it is on disk (a risk config): a queue worker must read the submitter's.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** `sha256:…` of the file's bytes. */
export async function fileHash(path: string): Promise<string> {
  return `sha256:${createHash('sha256')
    .update(await readFile(path))
    .digest('hex')}`;
}
