// The result file is written whole or not at all: beside its place and renamed over it, so a run stopped
// mid-write keeps the previous result; a pipe is written in place.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
