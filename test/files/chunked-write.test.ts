// The result file is written whole or not at all: beside its place and renamed over it, so a run stopped
// mid-write keeps the previous result; a pipe is written in place.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeChunksToFile } from '../../src/files/chunked-write.js';

let folder: string | undefined;
afterEach(() => {
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

describe('writing the result file', () => {
  it('writes every piece, and leaves nothing beside the file', () => {
    folder = mkdtempSync(join(tmpdir(), 'chunked-'));
    const path = join(folder, 'result.json');
    const pieces = Array.from({ length: 5000 }, (_, index) => `{"fill": ${index}, "note": "${'x'.repeat(300)}"}\n`);
    writeChunksToFile(path, pieces);
    expect(readFileSync(path, 'utf8')).toBe(pieces.join(''));
    expect(readdirSync(folder)).toEqual(['result.json']);
  });

  it('keeps the previous file whole when the writing stops half-way', () => {
    folder = mkdtempSync(join(tmpdir(), 'chunked-'));
    const path = join(folder, 'result.json');
    writeFileSync(path, '{"previous": true}\n');
    function* failing(): Generator<string> {
      for (let index = 0; index < 5000; index += 1) yield `${'y'.repeat(400)}\n`;
      throw new Error('stopped');
    }
    expect(() => writeChunksToFile(path, failing())).toThrow('stopped');
    expect(readFileSync(path, 'utf8')).toBe('{"previous": true}\n');
    expect(readdirSync(folder)).toEqual(['result.json']);
  });

  it('names the file it was asked to write, not the one beside it, when the folder is gone', () => {
    folder = mkdtempSync(join(tmpdir(), 'chunked-'));
    const path = join(folder, 'gone', 'result.json');
    expect(() => writeChunksToFile(path, ['{}\n'])).toThrow(`cannot write ${path}: its folder does not exist`);
  });

  it.skipIf(!existsSync('/dev/full'))('says the device is full when it is', () => {
    // /dev/full takes no byte: every write fails with ENOSPC, as on a full disk.
    expect(() => writeChunksToFile('/dev/full', ['{"a": 1}\n'])).toThrow('cannot write /dev/full: no space left on the device');
  });

  it('writes into a named pipe in place, leaving the pipe a pipe', async () => {
    folder = mkdtempSync(join(tmpdir(), 'chunked-'));
    const pipe = join(folder, 'pipe');
    execFileSync('mkfifo', [pipe]);
    const reader = spawn('cat', [pipe]);
    let read = '';
    reader.stdout.on('data', (chunk: Buffer) => (read += chunk.toString()));
    writeChunksToFile(pipe, ['{"a": 1}\n', '{"b": 2}\n']);
    await once(reader, 'close');
    expect(read).toBe('{"a": 1}\n{"b": 2}\n');
    expect(statSync(pipe).isFIFO()).toBe(true);
  });
});
