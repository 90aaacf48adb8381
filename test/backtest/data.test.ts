import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadBacktestData, symbolsOfDataPath } from '../../src/backtest/data.js';
import { parseSymbol } from '../../src/domain/symbol.js';
import { BadDataError } from '../../src/feeds/history/bad-data-error.js';

const HEADER = 'date,open,high,low,close,volume\n';

describe('backtest data', () => {
  let folder: string;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'backtest-data-'));
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('loads the symbols asked for from a folder of SYMBOL.csv files, in the account currency', async () => {
    await writeFile(join(folder, 'AAPL.US.csv'), `${HEADER}2024-01-02,1,2,0.5,1.5,100\n2024-01-03,1.5,2,1,1.8,100\n`);
    await writeFile(join(folder, 'MSFT.US.csv'), `${HEADER}2024-01-02,10,12,9,11,100\n`);
    await writeFile(join(folder, '700.HK.csv'), `${HEADER}2024-01-02,300,302,299,301,100\n`);

    const data = await loadBacktestData(folder, { symbols: [parseSymbol('AAPL.US'), parseSymbol('MSFT.US')] });

    expect(data.series.map((series) => [series.symbol, series.candles.length])).toEqual([
      ['AAPL.US', 2],
      ['MSFT.US', 1],
    ]);
    expect(data.period).toBe('day');
    expect(data.currency).toBe('USD');
  });

  it("lists the bad rows of every file of a folder when it fails, not only the first bad file's", async () => {
    await writeFile(join(folder, 'AAPL.US.csv'), `${HEADER}2024-01-02,1,2,0.5,1.5,100\n2024-01-03,x,2,1,1.8,100\n`);
    await writeFile(
      join(folder, 'GOOG.US.csv'),
      `${HEADER}2024-01-02,1,2,0.5,1.5,100\n2024-01-03,1,2,0.5,1.5,100\n2024-01-04,1,0.5,2,1,100\n`,
    );
    const failure = await loadBacktestData(folder).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BadDataError);
    expect((failure as Error).message).toBe(
      [
        '2 bad rows in candle data (use --on-bad-row skip to drop them):',
        `${join(folder, 'AAPL.US.csv')}:3: unparseable open "x"`,
        `${join(folder, 'GOOG.US.csv')}:4: high 0.5 is below low 2`,
      ].join('\n'),
    );
  });

  it('says every row was bad, with the first reason, when skipping bad rows leaves no bar', async () => {
    const file = join(folder, 'AAPL.US.csv');
    await writeFile(file, `${HEADER}1998/01/02,1,2,0.5,1.5,100\n1998/01/05,1,2,0.5,1.5,100\n`);
    await expect(loadBacktestData(file, { onBadRow: 'skip' })).rejects.toThrow(
      `the candle data has no bars: all 2 of its rows were bad and skipped, e.g. ${file}:2: unparseable time "1998/01/02"`,
    );
    await writeFile(file, HEADER);
    await expect(loadBacktestData(file, { onBadRow: 'skip' })).rejects.toThrow(
      `the candle data has no bars (${file}: no rows after the header)`,
    );
  });

  it("names a Parquet file's bad row by its row, not as a line, when skipping leaves no bar", async () => {
    const file = join(folder, 'AAPL.US.parquet');
    const names = ['open', 'high', 'low', 'close', 'volume'];
    const written = parquetWriteBuffer({
      columnData: [
        { name: 'date', data: ['2024-01-02', '2024-01-03'], type: 'STRING' },
        ...names.map((name) => ({ name, data: name === 'high' ? [0.5, 0.5] : [1, 1], type: 'DOUBLE' as const })),
      ],
    });
    await writeFile(file, new Uint8Array(written));
    await expect(loadBacktestData(file, { onBadRow: 'skip' })).rejects.toThrow(
      `the candle data has no bars: all 2 of its rows were bad and skipped, e.g. ${file} row 1: high 0.5 is below low 1`,
    );
  });

  it('reports bad rows with file, line and reason, and fails by default', async () => {
    const file = join(folder, 'AAPL.US.csv');
    await writeFile(
      file,
      `${HEADER}2024-01-02,1,2,0.5,1.5,100\n2024-01-03,1,0.5,2,1,100\n2024-01-02,1,2,0.5,1.5,100\n2024-01-01,1,2,0.5,1.5,100\nnot-a-date,1,2,0.5,1.5,100\n`,
    );

    const failure = await loadBacktestData(file).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(BadDataError);
    expect((failure as BadDataError).message.split('\n').slice(1)).toEqual([
      `${file}:3: high 0.5 is below low 2`,
      `${file}:4: duplicate bar: same time as line 2`,
      `${file}:5: time goes backwards: earlier than line 2`,
      `${file}:6: unparseable time "not-a-date"`,
    ]);
  });

  it('drops bad rows under the skip policy and says how many', async () => {
    const file = join(folder, 'AAPL.US.csv');
    await writeFile(file, `${HEADER}2024-01-02,1,2,0.5,1.5,100\n2024-01-03,1,0.5,2,1,100\n2024-01-04,1,2,0.5,1.5,100\n`);

    const data = await loadBacktestData(file, { onBadRow: 'skip' });

    expect(data.series[0]!.candles).toHaveLength(2);
    expect(data.skippedRows).toBe(1);
    expect(data.problems).toEqual([{ source: file, line: 3, reason: 'high 0.5 is below low 2' }]);
  });

  it('refuses symbols of two currencies in one run', async () => {
    await writeFile(join(folder, 'AAPL.US.csv'), `${HEADER}2024-01-02,1,2,0.5,1.5,100\n`);
    await writeFile(join(folder, '700.HK.csv'), `${HEADER}2024-01-02,300,302,299,301,100\n`);

    await expect(loadBacktestData(folder)).rejects.toThrow('the symbols trade in different currencies (HKD, USD)');
  });

  it('refuses files of different periods in one run', async () => {
    await writeFile(join(folder, 'AAPL.US.csv'), `${HEADER}2024-01-02,1,2,0.5,1.5,100\n`);
    await writeFile(
      join(folder, 'MSFT.US.csv'),
      'datetime,open,high,low,close,volume\n2024-01-02T10:00,1,2,0.5,1.5,100\n2024-01-02T10:01,1,2,0.5,1.5,100\n',
    );

    await expect(loadBacktestData(folder)).rejects.toThrow(/different periods .*AAPL\.US\.csv: day.*MSFT\.US\.csv: 1m/);
  });

  it("takes a single file's symbol from its name, a folder's from its files' names, and asks for --symbols when the name is not one", async () => {
    await writeFile(join(folder, 'AAPL.US.csv'), HEADER);
    await writeFile(join(folder, 'MSFT.US.csv'), HEADER);
    await writeFile(join(folder, '0700.HK.CSV'), HEADER);
    await writeFile(join(folder, 'prices.csv'), HEADER);
    await writeFile(join(folder, 'notes.txt'), 'not data');

    const notes: string[] = [];
    expect(await symbolsOfDataPath(join(folder, 'AAPL.US.csv'), (note) => notes.push(note))).toEqual(['AAPL.US']);
    expect(await symbolsOfDataPath(folder, (note) => notes.push(note))).toEqual(['700.HK', 'AAPL.US', 'MSFT.US']);
    // The file named otherwise is left out, and said to be (a run of the folder would miss it without a word).
    expect(notes).toEqual([
      `note: ${folder} has candle files not read; its file prices.csv is named by a code alone: read for --symbols of that code (PRICES.US reads prices.csv), or name it like 700.HK.csv or AAPL.US.csv\n`,
    ]);
    await expect(symbolsOfDataPath(join(folder, 'prices.csv'))).rejects.toThrow('name the symbol with --symbols');
    await expect(symbolsOfDataPath(join(folder, 'missing.csv'))).rejects.toThrow('does not exist');
  });

  it('takes the securities and actions files beside the candle files for what they are: no note, not read as bars', async () => {
    await writeFile(join(folder, 'AAPL.US.csv'), `${HEADER}2024-01-02,10,11,9,10.5,100\n`);
    await writeFile(join(folder, 'securities.csv'), 'symbol,lot_size\nAAPL.US,1\n');
    await writeFile(join(folder, 'actions.csv'), 'symbol,date,kind,value\n');

    const notes: string[] = [];
    expect(await symbolsOfDataPath(folder, (note) => notes.push(note))).toEqual(['AAPL.US']);
    expect(notes).toEqual([]);
    // Asked for by a code, the side files are not candle files either.
    await expect(loadBacktestData(folder, { symbols: [parseSymbol('AAPL.US'), parseSymbol('ACTIONS.US')] })).rejects.toThrow(
      'no candle file for ACTIONS.US',
    );
  });

  it('refuses a folder without any SYMBOL.csv file', async () => {
    await writeFile(join(folder, 'prices.csv'), HEADER);

    await expect(symbolsOfDataPath(folder)).rejects.toThrow(
      `no candle file named like SYMBOL.csv or SYMBOL.parquet (e.g. 700.HK.csv) in ${folder}; its file prices.csv is named by a code alone: read for --symbols of that code (PRICES.US reads prices.csv), or name it like 700.HK.csv or AAPL.US.csv`,
    );
  });

  it("gives each file its own candles in its own order when the files' calendars differ (candles are made in time order across files)", async () => {
    await writeFile(
      join(folder, 'AAPL.US.csv'),
      `date,open,high,low,close,volume,turnover\n2024-01-02,1,2,0.5,1.5,100,150\n2024-01-03,1.5,2,1,1.8,100,\n2024-01-05,1.8,2,1.7,1.9,100,190\n`,
    );
    await writeFile(
      join(folder, 'MSFT.US.csv'),
      `${HEADER}2024-01-03,10,12,9,11,100\n2024-01-04,11,12,10,11.5,100\n2024-01-08,11.5,12,11,11.8,100\n`,
    );

    const data = await loadBacktestData(folder);

    const rows = data.series.map((series) => [series.symbol, series.candles.map((candle) => [candle.close, candle.turnover])]);
    expect(rows).toEqual([
      [
        'AAPL.US',
        [
          [1.5, 150],
          [1.8, undefined],
          [1.9, 190],
        ],
      ],
      [
        'MSFT.US',
        [
          [11, undefined],
          [11.5, undefined],
          [11.8, undefined],
        ],
      ],
    ]);
    expect(
      data.series.every((series) =>
        series.candles.every(
          (candle, index) => candle.symbol === series.symbol && (index === 0 || candle.time > series.candles[index - 1]!.time),
        ),
      ),
    ).toBe(true);
    expect(data.series[0]!.candles.some((candle) => 'turnover' in candle && candle.turnover === undefined)).toBe(false);
  });
});
