import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { warmUpBacktest } from '../../../src/cli/snapshot/warm-up-backtest.js';

describe('the backtest run while the backtest snapshot is built', () => {
  it('buys and closes (the order path runs, and is compiled in the snapshot), and leaves no files behind', async () => {
    const before = (await readdir(tmpdir())).filter((name) => name.startsWith('trader-snapshot-warm-up-'));

    const fills = await warmUpBacktest();

    expect(fills).toBeGreaterThan(10);
    expect((await readdir(tmpdir())).filter((name) => name.startsWith('trader-snapshot-warm-up-'))).toEqual(before);
  });
});
