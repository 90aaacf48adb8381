// Candle files for the end-to-end bench, made once and kept in the system's temp folder: a daily universe
// (500 symbols × 5,000 bars) and one symbol of 1,000,000 one-minute bars. Prices follow the real daily and
// minute history in ../shared/data when it is there (cycled, each symbol from its own offset), seeded random
// walks otherwise; either way the same files come out every time.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SHARED = new URL('../../../shared/data/', import.meta.url);
const DAY_MS = 86_400_000;

/** One bar's price fields as written in the file (open, high, low, close, volume). */
type Row = readonly [string, string, string, string, string];

export interface BenchDataSet {
  readonly folder: string;
  readonly symbols: readonly string[];
  readonly bars: number;
  /** Where the prices came from. */
  readonly source: string;
}

function readRows(path: string): Row[] {
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  const header = lines[0]!.toLowerCase().split(',');
  const at = ['open', 'high', 'low', 'close', 'volume'].map((name) => header.indexOf(name));
  return lines.slice(1).map((line) => {
    const cells = line.split(',');
    return at.map((index) => cells[index]!) as unknown as Row;
  });
}

/** Real price rows when ../shared/data has the folders, else undefined. */
function realPaths(folders: readonly string[]): Row[][] | undefined {
  const paths: Row[][] = [];
  for (const folder of folders) {
    const url = new URL(`${folder}/`, SHARED);
    if (!existsSync(url)) return undefined;
    // Sorted: readdir's order depends on the file system, and the same files must come out everywhere.
    for (const name of readdirSync(url.pathname)
      .filter((name) => name.endsWith('.csv'))
      .sort())
      paths.push(readRows(join(url.pathname, name)));
  }
  return paths.length === 0 ? undefined : paths;
}

/** A seeded random walk of `count` rows with two decimals. */
function generatedPath(seed: number, count: number): Row[] {
  let state = seed;
  let price = 50 + (seed % 100);
  const rows: Row[] = [];
  for (let index = 0; index < count; index += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const open = price;
    price = Math.max(1, Math.round(price * (1 + (state / 2_147_483_648 - 0.5) * 0.04) * 100) / 100);
    const high = Math.max(open, price) + 0.05;
    const low = Math.max(0.01, Math.min(open, price) - 0.05);
    rows.push([open.toFixed(2), high.toFixed(2), low.toFixed(2), price.toFixed(2), String(100_000 + (state % 900_000))]);
  }
  return rows;
}

/** The first `count` weekdays from 2000-01-03, as YYYY-MM-DD. */
function weekdays(count: number): string[] {
  const dates: string[] = [];
  for (let time = Date.UTC(2000, 0, 3); dates.length < count; time += DAY_MS) {
    const weekday = new Date(time).getUTCDay();
    if (weekday !== 0 && weekday !== 6) dates.push(new Date(time).toISOString().slice(0, 10));
  }
  return dates;
}

/** Writes the files into a fresh folder and renames it into place, so a half-written set is never used. */
async function materialise(folder: string, files: () => Iterable<readonly [string, string]>): Promise<void> {
  if (existsSync(folder)) return;
  const partial = `${folder}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  for (const [name, text] of files()) await writeFile(join(partial, name), text);
  await rename(partial, folder);
}

function cacheFolder(name: string): string {
  return join(tmpdir(), 'longport-trader-bench', name);
}

/** 500 symbols × 5,000 daily bars (S000.US … S499.US), one CSV each. */
export async function dailyUniverse(symbolCount = 500, barCount = 5_000): Promise<BenchDataSet> {
  const real = realPaths(['us-daily', 'yahoo-daily']);
  const source = real === undefined ? 'generated random walks' : 'real daily prices of ../shared/data/us-daily and yahoo-daily, cycled';
  const folder = cacheFolder(`daily-${symbolCount}x${barCount}-${real === undefined ? 'generated' : 'real'}-v1`);
  const symbols = Array.from({ length: symbolCount }, (_, index) => `S${String(index).padStart(3, '0')}.US`);
  const dates = weekdays(barCount);
  await materialise(folder, function* () {
    for (let which = 0; which < symbolCount; which += 1) {
      const path = real === undefined ? generatedPath(which + 1, barCount) : real[which % real.length]!;
      const offset = real === undefined ? 0 : (which * 397) % path.length;
      const lines = ['date,open,high,low,close,volume'];
      for (let index = 0; index < barCount; index += 1) lines.push(`${dates[index]},${path[(offset + index) % path.length]!.join(',')}`);
      yield [`${symbols[which]}.csv`, `${lines.join('\n')}\n`];
    }
  });
  return { folder, symbols, bars: symbolCount * barCount, source };
}

/** One symbol (MIN.US) of `barCount` one-minute bars, 390 a weekday from 09:30 New York time. */
export async function minuteSeries(barCount = 1_000_000): Promise<BenchDataSet> {
  const real = realPaths(['us-minute']);
  const source = real === undefined ? 'a generated random walk' : 'real minute prices of ../shared/data/us-minute, cycled';
  const folder = cacheFolder(`minute-${barCount}-${real === undefined ? 'generated' : 'real'}-v1`);
  const path = real === undefined ? generatedPath(7, 100_000) : real.flat();
  const days = weekdays(Math.ceil(barCount / 390));
  await materialise(folder, function* () {
    const lines = ['datetime,open,high,low,close,volume'];
    for (let index = 0; index < barCount; index += 1) {
      const minute = 9 * 60 + 30 + (index % 390);
      const time = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
      lines.push(`${days[Math.floor(index / 390)]} ${time},${path[index % path.length]!.join(',')}`);
    }
    yield ['MIN.US.csv', `${lines.join('\n')}\n`];
  });
  return { folder, symbols: ['MIN.US'], bars: barCount, source };
}
