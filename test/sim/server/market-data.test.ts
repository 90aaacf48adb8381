// The simulator's candles for a paper run: read for the wanted symbols, so a folder of files named by their
// code alone (SPY.csv) replays as the symbol asked for (SPY.US), as a backtest of that folder reads it.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { loadMarketData } from '../../../src/sim/server/market/market-data.js';
import { madeTempFolder } from '../../support/temp-folder.js';

describe("the simulator's candle files", () => {
  it('replays a file named by its code for the wanted symbol of that code, and names a wanted symbol without a file', async () => {
    const folder = madeTempFolder('sim-data-');
    await writeFile(join(folder, 'SPY.csv'), 'date,open,high,low,close,volume\n2020-01-02,3,3,3,3,1\n2020-01-03,4,4,4,4,1\n');
    await writeFile(join(folder, 'IBM.csv'), 'date,open,high,low,close,volume\n2020-01-02,5,5,5,5,1\n');

    const [spy, ...others] = await loadMarketData({ data: folder, symbols: [parseSymbol('SPY.US')] });
    expect(others).toEqual([]);
    expect(spy).toMatchObject({ symbol: 'SPY.US', replayFrom: 0 });
    expect(spy!.candles.map((candle) => candle.close)).toEqual([3, 4]);
    await expect(loadMarketData({ data: folder, symbols: [parseSymbol('MSFT.US')] })).rejects.toThrow(
      `no candle file for MSFT.US in ${folder} (looked for MSFT.US.csv or MSFT.csv, or .parquet); its files IBM.csv, SPY.csv are named by a code alone`,
    );
  });
});
