// Loading a folder of candle files (CSV, Parquet or both) on two threads (this one and a helper) gives what loading them on one
// thread gives: the same columns in the same order, the same skipped rows, and the same first error.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCandles, type LoadOptions, type LoadResult } from '../../../src/feeds/history/candle-files.js';
import { readCandleFile } from '../../../src/feeds/history/candle-files.js';
import { type CandleFileJob, PARALLEL_MIN_BYTES, readInParallel, worthParallel } from '../../../src/feeds/history/parallel-load.js';
import { parseSymbol } from '../../../src/domain/symbol.js';

// The helper thread starts through tsx here (from src/), which takes a while on a busy machine.
const HELPER_MS = 60_000;

let dir: string;

/** A file of `rows` daily bars from 2000-01-03, prices from `seed` (one decimal more for odd seeds). */
function csv(rows: number, seed: number, bad?: { readonly row: number; readonly line: string }): string {
  const lines = ['date,open,high,low,close,volume'];
  const day = new Date(Date.UTC(2000, 0, 3));
  for (let row = 0; row < rows; row += 1) {
    const price = (seed + 1 + (row % 17)) / (seed % 2 === 0 ? 10 : 100);
    lines.push(
      bad?.row === row ? bad.line : `${day.toISOString().slice(0, 10)},${price},${price + 1},${price},${price + 0.5},${1000 + row}`,
    );
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return `${lines.join('\n')}\n`;
}

async function folder(name: string, files: Readonly<Record<string, string>>): Promise<string> {
  const path = join(dir, name);
  await rm(path, { recursive: true, force: true });
  await import('node:fs/promises').then((fs) => fs.mkdir(path));
  for (const [file, text] of Object.entries(files)) await writeFile(join(path, file), text);
  return path;
}

/** A read of each file of `names` in the folder (New York times, the symbol from the name). */
function jobsFor(path: string, names: readonly string[]): CandleFileJob[] {
  return names.map((name) => ({
    path: join(path, name),
    options: { symbol: parseSymbol(name.replace('.csv', '')), source: name, timeZone: 'America/New_York' },
  }));
}

/** The load on one thread and on two, for comparison. */
async function both(path: string, options: LoadOptions = {}): Promise<[LoadResult | Error, LoadResult | Error]> {
  const settle = (parallel: 'never' | 'always') => loadCandles(path, { ...options, parallel }).catch((error: unknown) => error as Error);
  return [await settle('never'), await settle('always')];
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parallel-load-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('loading candle files on two threads', () => {
  it('gives the same series, columns and order as one thread', { timeout: HELPER_MS }, async () => {
    const files = Object.fromEntries(
      Array.from({ length: 24 }, (_, index) => [`S${String(index).padStart(2, '0')}.US.csv`, csv(300 + index * 7, index)]),
    );
    const [one, two] = await both(await folder('clean', files));

    expect(one).not.toBeInstanceOf(Error);
    const columns = (result: LoadResult | Error) => (result as LoadResult).series.map(({ columns: c }) => ({ ...c }));
    expect(columns(two)).toEqual(columns(one));
    expect((two as LoadResult).series).toHaveLength(24);
  });

  it('reads Parquet files on the helper too: the same columns as one thread, and as the CSV files they were made from', {
    timeout: HELPER_MS,
  }, async () => {
    const texts = Array.from({ length: 12 }, (_, index) => csv(400 + index * 11, index + 3));
    const csvFolder = await folder('csv-twins', Object.fromEntries(texts.map((text, index) => [`P${index}.US.csv`, text])));
    const { writeCandleParquet } = await import('../../../src/feeds/history/candle-parquet.js');
    const mixed = await folder('mixed', {});
    for (const [index, text] of texts.entries()) {
      const name = `P${index}.US`;
      // Half the symbols as Parquet, half as CSV: one folder may mix them.
      if (index % 2 === 0) await writeFile(join(mixed, `${name}.csv`), text);
      else {
        const { columns } = await readCandleFile(join(csvFolder, `${name}.csv`), {
          symbol: parseSymbol(name),
          source: `${name}.csv`,
          timeZone: 'America/New_York',
        });
        await writeFile(join(mixed, `${name}.parquet`), writeCandleParquet(columns, 'America/New_York'));
      }
    }
    const [one, two] = await both(mixed);
    const [csvOne] = await both(csvFolder);

    const columns = (result: LoadResult | Error) =>
      (result as LoadResult).series.map(({ columns: c }) => ({ ...c, source: basename(c.source).replace(/\.(csv|parquet)$/, '') }));
    expect(one).not.toBeInstanceOf(Error);
    expect((two as LoadResult).threads).toMatchObject({ threads: 2 });
    expect((two as LoadResult).threads.helperFailure).toBeUndefined();
    expect(columns(two)).toEqual(columns(one));
    expect(columns(two)).toEqual(columns(csvOne));
  });

  it('fails on a Parquet file that is not one with the error a one-thread load gives, whichever thread met it', {
    timeout: HELPER_MS,
  }, async () => {
    const { writeCandleParquet } = await import('../../../src/feeds/history/candle-parquet.js');
    const path = await folder('bad-parquet', {});
    for (let index = 0; index < 10; index += 1) {
      const name = `Q${index}.US`;
      const { columns } = await readCandleFile(
        join(await folder(`one-${index}`, { [`${name}.csv`]: csv(300, index + 1) }), `${name}.csv`),
        {
          symbol: parseSymbol(name),
          source: `${name}.csv`,
          timeZone: 'America/New_York',
        },
      );
      const bytes = writeCandleParquet(columns, 'America/New_York');
      // Q6 is cut short: no footer, so not a Parquet file.
      await writeFile(join(path, `${name}.parquet`), index === 6 ? bytes.subarray(0, 100) : bytes);
    }
    const [one, two] = await both(path);

    expect(one).toBeInstanceOf(Error);
    expect((two as Error).message).toBe((one as Error).message);
    expect((two as Error).message).toMatch(/Q6\.US\.parquet/);
  });

  it('skips the same bad rows and reports them in file order', { timeout: HELPER_MS }, async () => {
    const files = Object.fromEntries(
      Array.from({ length: 12 }, (_, index) => [
        `S${String(index).padStart(2, '0')}.US.csv`,
        csv(200, index, index % 3 === 1 ? { row: 50 + index, line: '2000-13-01,1,1,1,1,1' } : undefined),
      ]),
    );
    const [one, two] = await both(await folder('skip', files), { onBadRow: 'skip' });

    expect((two as LoadResult).skippedRows).toBe(4);
    expect((two as LoadResult).problems).toEqual((one as LoadResult).problems);
    expect((two as LoadResult).series.map((series) => series.columns.length)).toEqual(
      (one as LoadResult).series.map((series) => series.columns.length),
    );
  });

  it('fails with the error of the first bad file in file order, whichever thread read it', { timeout: HELPER_MS }, async () => {
    const files = Object.fromEntries(
      Array.from({ length: 16 }, (_, index) => [
        `S${String(index).padStart(2, '0')}.US.csv`,
        csv(400, index, index === 9 || index === 13 ? { row: 10, line: '2000-01-13,1,nope,1,1,1' } : undefined),
      ]),
    );
    const [one, two] = await both(await folder('fail', files));

    expect(one).toBeInstanceOf(Error);
    expect((two as Error).message).toBe((one as Error).message);
    expect((two as Error).message).toMatch(/S09\.US\.csv:12/);
    expect((two as Error).constructor).toBe((one as Error).constructor);
  });

  it('has the helper read files while this thread reads others', { timeout: HELPER_MS }, async () => {
    const names = Array.from({ length: 10 }, (_, index) => `S${index}.US.csv`);
    const path = await folder('shared', Object.fromEntries(names.map((name, index) => [name, csv(100 + index, index)])));
    const jobs = jobsFor(path, names);
    // This thread reads its first file only once the helper has sent one back, so both threads take part.
    let helperSent!: () => void;
    const helperStarted = new Promise<void>((resolve) => {
      helperSent = resolve;
    });
    const byHelper: number[] = [];
    const here: number[] = [];
    const { loaded, threads } = await readInParallel(
      jobs,
      async (job) => {
        await helperStarted;
        here.push(jobs.indexOf(job));
        return readCandleFile(job.path, job.options);
      },
      (index) => {
        byHelper.push(index);
        helperSent();
      },
    );

    expect(byHelper.length).toBeGreaterThan(0);
    expect(here.length).toBeGreaterThan(0);
    expect(loaded).toEqual(await Promise.all(jobs.map((job) => readCandleFile(job.path, job.options))));
    expect(threads).toEqual({ threads: 2, helperFiles: byHelper.length });
  });

  it("reports a file the helper could not read with this thread's error, before later bad files", { timeout: HELPER_MS }, async () => {
    const names = Array.from({ length: 8 }, (_, index) => `S${index}.US.csv`);
    const bad = { row: 3, line: '2000-01-06,1,1,1,oops,1' };
    const path = await folder(
      'helper-fails',
      Object.fromEntries(names.map((name, index) => [name, csv(60, index, index === 1 || index === 6 ? bad : undefined)])),
    );
    const jobs = jobsFor(path, names);
    // This thread holds its first file (the first) until the helper has sent back the second: the bad one.
    let secondSent!: () => void;
    const helperTookSecond = new Promise<void>((resolve) => {
      secondSent = resolve;
    });
    const failed: number[] = [];
    const outcome = readInParallel(
      jobs,
      async (job) => {
        await helperTookSecond;
        return readCandleFile(job.path, job.options);
      },
      (index, read) => {
        if (!read) failed.push(index);
        if (index === 1) secondSent();
      },
    );

    await expect(outcome).rejects.toThrow(/S1\.US\.csv:5: .*close/);
    expect(failed).toContain(1);
  });

  it('stops once its signal aborts: no other file begun on this thread, the helper stopped, the reason thrown', {
    timeout: HELPER_MS,
  }, async () => {
    const names = Array.from({ length: 8 }, (_, index) => `S${index}.US.csv`);
    const path = await folder('stopped', Object.fromEntries(names.map((name, index) => [name, csv(60, index)])));
    const stop = new AbortController();
    const begun: string[] = [];

    const outcome = readInParallel(
      jobsFor(path, names),
      (job) => {
        begun.push(job.options.source);
        stop.abort(new Error('interrupted'));
        return readCandleFile(job.path, job.options);
      },
      undefined,
      stop.signal,
    );

    await expect(outcome).rejects.toThrow('interrupted');
    expect(begun).toHaveLength(1);
  });

  it('is used for several candle files of at least PARALLEL_MIN_BYTES in all', async () => {
    const big = await folder('big', { 'A.US.csv': csv(10, 1), 'B.US.csv': csv(10, 2) });
    const job = (file: string) => ({
      path: join(big, file),
      options: { symbol: file.replace('.csv', ''), source: file, timeZone: 'UTC' } as never,
    });

    expect(worthParallel([job('A.US.csv'), job('B.US.csv')])).toBe(false);
    await writeFile(join(big, 'B.US.csv'), csv(Math.ceil(PARALLEL_MIN_BYTES / 25), 2));
    expect(worthParallel([job('A.US.csv'), job('B.US.csv')])).toBe(true);
    expect(worthParallel([job('B.US.csv')])).toBe(false);
  });
});
