// A big candle file for tests that interrupt a load: minute bars of a US stock, 390 a weekday.
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** A folder holding AAPL.US.csv of writeMinuteBars for the test file's tests (made before them, removed after). */
export function bigMinuteFolder(): () => string {
  let folder = '';
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'big-minutes-'));
    await writeMinuteBars(join(folder, 'AAPL.US.csv'));
  }, 120_000);
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  return () => folder;
}

/** 2,000,000 rows (about 100 MB) by default: long to read next to a signal's way to the process. */
export async function writeMinuteBars(path: string, rows = 2_000_000): Promise<void> {
  const file = createWriteStream(path);
  file.write('datetime,open,high,low,close,volume\n');
  for (let day = 0, written = 0; written < rows; day += 1) {
    const date = new Date(Date.UTC(2000, 0, 3) + day * 86_400_000);
    if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
    const text = date.toISOString().slice(0, 10);
    let lines = '';
    for (let minute = 570; minute < 960 && written < rows; minute += 1, written += 1) {
      const time = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
      lines += `${text} ${time},100.5,101.25,99.75,100.75,${1_000 + (minute % 7)}\n`;
    }
    if (!file.write(lines)) await once(file, 'drain');
  }
  file.end();
  await once(file, 'close');
}
