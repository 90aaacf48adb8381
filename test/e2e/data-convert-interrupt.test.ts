// `trader data convert` stopped by Ctrl-C or SIGTERM: it finishes the file in flight, leaves no half-written
// file, lists the files converted (with --json too) and exits 130.
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnTrader } from '../support/socket/spawn-trader.js';

/** Enough files that a signal sent after the first one lands long before the last. */
const FILES = 200;
let folder: string;
let input: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'data-convert-interrupt-'));
  input = join(folder, 'csv');
  await mkdir(input);
  const names = Array.from({ length: FILES - 1 }, (_, index) => `S${String(index + 1).padStart(3, '0')}.US`);
  for (const name of names) await symlink(resolve('backtest-data/SPX.US.csv'), join(input, `${name}.csv`));
  // The last file's dividend goes to the output's actions.csv only when the file is converted.
  await writeFile(
    join(input, `S${FILES}.US.csv`),
    'Date,Open,High,Low,Close,Volume,Dividends,Stock Splits\n2024-01-02,10,10,10,10,100,0,0\n2024-01-03,10,10,10,10,100,1,0\n',
  );
  await writeFile(join(input, 'securities.csv'), 'symbol,name,currency,lot_size,tick,fractional_shares\nS001.US,First,USD,1,,\n');
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('trader data convert, interrupted', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'on %s finishes the file in flight, lists the files converted as JSON, leaves no partial file, exit 130',
    async (signal) => {
      const out = join(folder, `parquet-${signal}`);
      const convert = spawnTrader(['data', 'convert', input, '--out', out, '--json'], {});
      while (!convert.stderr().includes('data convert: ')) await new Promise((done) => setImmediate(done));
      convert.child.kill(signal);
      const exit = await new Promise<number | null>((done) => convert.child.on('close', done));

      expect(exit).toBe(130);
      const listed = (JSON.parse(convert.lines.join('\n')) as { output: string }[]).map((result) => result.output);
      const written = (await readdir(out)).sort();
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.length).toBeLessThan(FILES);
      // Every file listed is there whole; nothing else, bar the folder's securities.csv copied beside them
      // (and no actions.csv: the one file with a dividend was not converted).
      expect(written).toEqual([...listed.map((file) => file.slice(out.length + 1)), 'securities.csv'].sort());
      expect(convert.stderr()).toContain(`interrupted: ${listed.length} of ${FILES} files converted; run the same command again`);
    },
    60_000,
  );
});
