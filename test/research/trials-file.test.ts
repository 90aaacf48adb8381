import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTrialsFile, saveTrials } from '../../src/research/trials-file.js';
import { syntheticOutcome } from '../support/research/outcomes.js';

describe('the trials file', () => {
  let folder: string | undefined;
  afterEach(() => folder !== undefined && rmSync(folder, { recursive: true, force: true }));

  it('reads back a file of many trials (lines across its megabyte reads), each trial once', () => {
    folder = mkdtempSync(join(tmpdir(), 'trials-'));
    const outcomes = Array.from({ length: 3000 }, (_, index) => syntheticOutcome(index, { note: 'é'.repeat(index % 500) }));
    const path = saveTrials(join(folder, 'run.jsonl'), { run: 'a' }, outcomes);
    const written = readFileSync(path, 'utf8');
    expect(Buffer.byteLength(written)).toBeGreaterThan(2 << 20);
    // The same trial twice (a retried queue job written by both runs) counts once.
    writeFileSync(path, `${written}${JSON.stringify(outcomes[7])}\n`);
    const file = openTrialsFile(path, { run: 'a' });
    file.close();
    // As JSON carries them (∞ as null, −0 as 0).
    expect([...file.finished]).toEqual(JSON.parse(JSON.stringify(outcomes)));
    expect(readFileSync(path, 'utf8')).toBe(written);
  });

  it('reads trials written before trials said whether their strategy failed as trials that ran to the end', () => {
    folder = mkdtempSync(join(tmpdir(), 'trials-'));
    const outcomes = [syntheticOutcome(1), syntheticOutcome(2, { failure: 'boom' })];
    const path = saveTrials(join(folder, 'run.jsonl'), { run: 'a' }, outcomes);
    const [header, first] = readFileSync(path, 'utf8').split('\n');
    const older = JSON.parse(first!);
    delete older.metrics.failure;
    writeFileSync(path, `${header}\n${JSON.stringify(older)}\n${JSON.stringify(outcomes[1])}\n`);
    const file = openTrialsFile(path, { run: 'a' });
    file.close();
    expect([...file.finished].map((outcome) => outcome.metrics.failure)).toEqual([null, 'boom']);
  });

  it('names the file and line of a line that is not a trial', () => {
    folder = mkdtempSync(join(tmpdir(), 'trials-'));
    const path = saveTrials(join(folder, 'run.jsonl'), { run: 'a' }, [syntheticOutcome(1), syntheticOutcome(2)]);
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"index":3,"params":{}}\n${JSON.stringify(syntheticOutcome(4))}\n`);
    expect(() => openTrialsFile(path, { run: 'a' })).toThrow(`${path}:4: not a trial of this run`);
    writeFileSync(path, `${readFileSync(path, 'utf8').split('\n').slice(0, 3).join('\n')}\nnot json\n{}\n`);
    expect(() => openTrialsFile(path, { run: 'a' })).toThrow(`${path}:4: not a trials file line`);
  });
});
