import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleHash } from '../../src/research/strategy-hash.js';
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

  it('refuses a file of an earlier version for a run with a risk-free rate (its statistics took plain returns), and resumes one without', () => {
    folder = mkdtempSync(join(tmpdir(), 'trials-'));
    const withRate = { run: 'a', settings: { riskFreeRate: 0.02 } };
    const withoutRate = { run: 'a', settings: { riskFreeRate: 0 } };
    const earlier = (run: Readonly<Record<string, unknown>>): string => {
      const path = saveTrials(join(folder!, 'run.jsonl'), run, [syntheticOutcome(1)]);
      const [header, ...rest] = readFileSync(path, 'utf8').split('\n');
      writeFileSync(path, [JSON.stringify({ ...JSON.parse(header!), version: 1 }), ...rest].join('\n'));
      return path;
    };
    const old = earlier(withRate);
    expect(() => openTrialsFile(old, withRate)).toThrow(
      `${old} was written by an earlier trader, whose overfitting statistics left --risk-free-rate out`,
    );
    const plain = earlier(withoutRate);
    const file = openTrialsFile(plain, withoutRate);
    file.close();
    expect([...file.finished]).toHaveLength(1);
    expect(JSON.parse(readFileSync(plain, 'utf8').split('\n')[0]!)).toMatchObject({ version: 2 });
  });

  it('names the file and line of a line that is not a trial', () => {
    folder = mkdtempSync(join(tmpdir(), 'trials-'));
    const path = saveTrials(join(folder, 'run.jsonl'), { run: 'a' }, [syntheticOutcome(1), syntheticOutcome(2)]);
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"index":3,"params":{}}\n${JSON.stringify(syntheticOutcome(4))}\n`);
    expect(() => openTrialsFile(path, { run: 'a' })).toThrow(`${path}:4: not a trial of this run`);
    writeFileSync(path, `${readFileSync(path, 'utf8').split('\n').slice(0, 3).join('\n')}\nnot json\n{}\n`);
    expect(() => openTrialsFile(path, { run: 'a' })).toThrow(`${path}:4: not a trials file line`);
  });

  it("refuses another run's file, saying what changed and how to start afresh", () => {
    folder = mkdtempSync(join(tmpdir(), 'trials-'));
    const run = { strategy: 's', strategyHash: 'sha256:a', defaults: { fast: 10 }, seed: 7, data: 'sha256:d' };
    const path = saveTrials(join(folder, 'run.jsonl'), run, [syntheticOutcome(1)]);
    const refusal = (changes: object): string => {
      try {
        openTrialsFile(path, { ...run, ...changes });
      } catch (error) {
        return (error as Error).message;
      }
      return 'resumed';
    };
    expect(refusal({})).toBe('resumed');
    expect(refusal({ strategyHash: 'sha256:b' })).toBe(
      `${path} holds the trials of another run; changed since: the strategy's code (its file or a file it imports). Run the same strategy, params, data and settings to continue, or to start afresh, delete ${path} or give another --resume file`,
    );
    expect(refusal({ defaults: { fast: 12 }, seed: 8 })).toContain(
      `changed since: the strategy's default params ({"fast":10} → {"fast":12}); --seed (7 → 8).`,
    );
  });
});

describe("a strategy's content hash", () => {
  const bundle = (runtime: string, code = 'const fast = 10;') =>
    `import { map } from "file://${runtime}/vendor/rxjs.js";\n${code}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(runtime).toString('base64')}\n`;

  it('is the same wherever the bundle was written and whichever copy of the runtime it imports', () => {
    const plain = bundleHash(bundle('/opt/trader/dist'));
    expect(bundleHash(bundle('/home/me/.cache/longport-trader/snapshots/1-2/bridges').replace('rxjs.js', 'rxjs.mjs'))).toBe(plain);
    expect(plain).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('changes with the code', () => {
    expect(bundleHash(bundle('/opt/trader/dist', 'const fast = 12;'))).not.toBe(bundleHash(bundle('/opt/trader/dist')));
  });
});
