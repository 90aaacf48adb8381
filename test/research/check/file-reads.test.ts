// What `trader check` notes of the files a strategy opens: every way node:fs reads a file by path (ES-module
// imports included), only while recording, only under the data's place, and fs as it was once stopped.
import * as fs from 'node:fs';
import { mkdtemp, readFile as readFileNamed, rm, writeFile } from 'node:fs/promises';
import { readFileSync as readFileSyncNamed } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileReads } from '../../../src/research/check/file-reads.js';

let dir: string;
let data: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'file-reads-'));
  data = join(dir, 'data');
  await fs.promises.mkdir(data);
  for (const name of ['A.US.csv', 'B.US.csv', 'C.US.csv', 'D.US.csv', 'E.US.csv', 'F.US.csv']) await writeFile(join(data, name), 'date\n');
  await writeFile(join(dir, 'params.json'), '{}');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('watching the files read', () => {
  it('notes files opened through each read function of node:fs, by path, file URL or Buffer', async () => {
    const reads = FileReads.watch();
    try {
      reads.resume();
      readFileSyncNamed(join(data, 'A.US.csv'));
      await readFileNamed(pathToFileURL(join(data, 'B.US.csv')));
      fs.closeSync(fs.openSync(Buffer.from(join(data, 'C.US.csv')), 'r'));
      await new Promise((resolve) => fs.readFile(join(data, 'D.US.csv'), resolve));
      await new Promise((resolve) =>
        fs
          .createReadStream(join(data, 'E.US.csv'))
          .on('close', () => resolve(undefined))
          .resume(),
      );
      await (await fs.promises.open(join(data, 'F.US.csv'))).close();
      readFileSyncNamed(join(dir, 'params.json'));

      expect(reads.within(data).map((path) => path.slice(data.length + 1))).toEqual([
        'A.US.csv',
        'B.US.csv',
        'C.US.csv',
        'D.US.csv',
        'E.US.csv',
        'F.US.csv',
      ]);
      expect(reads.within(join(data, 'A.US.csv'))).toEqual([join(data, 'A.US.csv')]);
      expect(reads.within(join(dir, 'dat'))).toEqual([]);
    } finally {
      reads.stop();
    }
  });

  it('notes a data file read through a link to it or its folder (a symlink, /proc/self/cwd)', async () => {
    await fs.promises.symlink(data, join(dir, 'linked'));
    const reads = FileReads.watch();
    try {
      reads.resume();
      readFileSyncNamed(join(dir, 'linked', 'A.US.csv'));
      readFileSyncNamed(join('/proc/self/root', data, 'B.US.csv'));

      expect(reads.within(data)).toEqual([join(dir, 'linked', 'A.US.csv'), join('/proc/self/root', data, 'B.US.csv')].sort());
    } finally {
      reads.stop();
    }
  });

  it('notes nothing while paused, and leaves fs as it found it once stopped', () => {
    const original = fs.readFileSync;
    const reads = FileReads.watch();
    reads.pause();
    readFileSyncNamed(join(data, 'A.US.csv'));
    reads.resume();
    reads.pause();
    expect(reads.within(data)).toEqual([]);
    expect(fs.readFileSync).not.toBe(original);

    reads.stop();
    expect(fs.readFileSync).toBe(original);
    expect(readFileSyncNamed).toBe(original);
  });
});
