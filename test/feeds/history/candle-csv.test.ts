import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { BadDataError } from '../../../src/feeds/history/bad-data-error.js';
import { parseCandleCsv } from '../../../src/feeds/history/candle-csv.js';
import { formatCandleCsv } from '../../../src/feeds/history/candle-csv-writer.js';
import { loadCandles } from '../../../src/feeds/history/candle-files.js';
import { mergeByTime } from '../../../src/feeds/history/merge.js';
import { madeTempFolder } from '../../support/temp-folder.js';

const HK = parseSymbol('700.HK');
const options = { symbol: HK, source: 'data.csv', timeZone: 'Asia/Hong_Kong' };

describe('candle CSV', () => {
  it('reads any column order and case, ignores extra columns, and stamps daily bars at local midnight', () => {
    const text =
      'Date,Open,High,Low,Close,Adj Close,Volume\n2020-01-02,10.5,11,10,10.75,10.70,1000\n2020-01-03,10.75,12,10.5,11.9,11.8,2000\n';
    const result = parseCandleCsv(text, options);
    expect(result.period).toBe('day');
    expect(result.candles).toHaveLength(2);
    expect(result.candles[0]).toMatchObject({ symbol: '700.HK', open: 10.5, high: 11, low: 10, close: 10.75, volume: 1000 });
    expect(new Date(result.candles[0]!.time).toISOString()).toBe('2020-01-01T16:00:00.000Z');
  });

  it('refuses a long table of several symbols in a symbol or ticker column, whatever the bad-row policy, and reads one of one symbol', () => {
    // Sorted by date then symbol, as exports of a universe often are: each second row would be a duplicate bar.
    const rows = [
      '2020-01-02,10,11,10,10.5,100',
      '2020-01-02,50,51,49,50.5,9',
      '2020-01-03,10,11,10,10.5,100',
      '2020-01-03,50,51,49,50.5,9',
    ];
    for (const [column, first, second] of [
      ['Ticker', '700', '"5"'],
      ['symbol', 'AAPL', 'SPY'],
    ] as const) {
      const text = [
        `${column},date,open,high,low,close,volume`,
        ...rows.map((row, index) => `${index % 2 === 0 ? first : second},${row}`),
      ].join('\n');
      expect(() => parseCandleCsv(text, { ...options, onBadRow: 'skip' })).toThrow(
        `data.csv:1: column ${column.toLowerCase()} holds 2 symbols (${first} from line 2, ${second.replaceAll('"', '')} from line 3); a candle file holds one symbol's bars: write a file per symbol, named after it (${first}.csv, …)`,
      );
    }
    const one = parseCandleCsv(
      ['date,open,high,low,close,volume,symbol', ...rows.filter((_, index) => index % 2 === 0).map((row) => `${row},700`)].join('\n'),
      options,
    );
    expect(one.candles.map((candle) => candle.close)).toEqual([10.5, 10.5]);
  });

  it('infers minute periods and honours explicit offsets', () => {
    const text = 'datetime,open,high,low,close,volume\n2014-06-05T09:30:00-04:00,1,1,1,1,5\n2014-06-05 09:35,1,1,1,1,5\n';
    const result = parseCandleCsv(text, { ...options, timeZone: 'America/New_York' });
    expect(result.period).toBe('5m');
    expect(new Date(result.candles[0]!.time).toISOString()).toBe('2014-06-05T13:30:00.000Z');
    expect(result.candles[1]!.time - result.candles[0]!.time).toBe(300_000);
  });

  it('fails on bad rows by default, naming file, line and reason for each', () => {
    const text = [
      'date,open,high,low,close,volume',
      '2020-01-02,10,11,10,10.5,100',
      '2020-01-03,x,11,10,10.5,100',
      '2020-01-06,10,9,10,10,100',
      '2020-01-06,10,11,10,10.5,100',
      '2020-01-06,10,11,10,10.5,100',
      '2020-01-01,10,11,10,10.5,100',
      '2020-01-07,13,12,10,11,100',
    ].join('\n');
    try {
      parseCandleCsv(text, options);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(BadDataError);
      const reasons = (error as BadDataError).problems.map((p) => `${p.source}:${p.line}: ${p.reason}`);
      expect(reasons).toEqual([
        'data.csv:3: unparseable open "x"',
        'data.csv:4: high 9 is below low 10',
        'data.csv:6: duplicate bar: same time as line 5',
        'data.csv:7: time goes backwards: earlier than line 5',
        "data.csv:8: open 13 is outside the bar's range [10, 12]",
      ]);
    }
  });

  it('refuses a value that no float holds exactly, naming it and what it would read as, and takes long or exponent text that one does', () => {
    const text = [
      'date,open,high,low,close,volume',
      '2020-01-02,1.5e3,1.6E3,1e3,1.55e3,9007199254740992',
      '2020-01-03,1e-7,1.2e-7,9e-8,0.00000011,100000000000000000000',
      '2020-01-06,10,11,10,10.5,9007199254740993',
      '2020-01-07,10,11,10,10.12345678901234567,100',
    ].join('\n');
    try {
      parseCandleCsv(text, options);
      expect.unreachable();
    } catch (error) {
      const reasons = (error as BadDataError).problems.map((p) => `${p.line}: ${p.reason}`);
      expect(reasons).toEqual([
        '4: volume "9007199254740993" has more digits than a float holds: it would be read as 9007199254740992',
        '5: close "10.12345678901234567" has more digits than a float holds: it would be read as 10.123456789012346',
      ]);
    }
    const read = parseCandleCsv(text.split('\n').slice(0, 3).join('\n'), options);
    expect(read.candles.map((c) => [c.open, c.close, c.volume])).toEqual([
      [1500, 1550, 2 ** 53],
      [1e-7, 1.1e-7, 1e20],
    ]);
  });

  it('reads a float written out longer than its shortest text (%.17g, numpy.savetxt) as that float', () => {
    const text = [
      'date,open,high,low,close,volume',
      '2020-01-02,0.10000000000000001,2.0499999999999998,1.000000000000000056e-01,2.0499999999999998223643160599749535322189331054687500,100',
    ].join('\n');
    const read = parseCandleCsv(text, options);
    expect(read.candles.map((c) => [c.open, c.high, c.low, c.close])).toEqual([[0.1, 2.05, 0.1, 2.05]]);
  });

  it('skips bad rows on request and counts them', () => {
    const text = 'date,open,high,low,close,volume\n2020-01-02,10,11,10,10.5,100\n2020-01-03,10,9,10,10,100\n2020-01-06,10,11,10,10.5,100\n';
    const result = parseCandleCsv(text, { ...options, onBadRow: 'skip' });
    expect(result.candles.map((c) => c.close)).toEqual([10.5, 10.5]);
    expect(result.skippedRows).toBe(1);
  });

  it('lists only the first ten problems and counts the rest', () => {
    const rows = Array.from({ length: 25 }, (_, i) => `2020-02-${String(i + 1).padStart(2, '0')},1,0,1,1,1`);
    const error = (() => {
      try {
        parseCandleCsv(['date,open,high,low,close,volume', ...rows].join('\n'), options);
      } catch (caught) {
        return caught as BadDataError;
      }
      return undefined;
    })();
    expect(error?.problems).toHaveLength(10);
    expect(error?.totalProblems).toBe(25);
    expect(error?.message).toMatch(/and 15 more/);
  });

  it('reads cells and header names in quotes, as spreadsheets and pandas may write them, and a leading byte-order mark', () => {
    const text =
      '\uFEFF"Date","Open","High","Low","Close","Volume"\r\n"2020-01-02","10.5",11,10,"10.75",1000\r\n2020-01-03,10.75,12,10.5,11.9,2000\r\n';
    const result = parseCandleCsv(text, options);
    expect(result.candles.map((candle) => [new Date(candle.time).toISOString(), candle.open, candle.close])).toEqual([
      ['2020-01-01T16:00:00.000Z', 10.5, 10.75],
      ['2020-01-02T16:00:00.000Z', 10.75, 11.9],
    ]);
  });

  it('says so when rows clash because of a clock change: a skipped wall time, a repeated one', () => {
    const york = { ...options, timeZone: 'America/New_York' };
    const header = 'datetime,open,high,low,close,volume\n';
    const forward = `${header}2024-03-10 01:30,1,1,1,1,1\n2024-03-10 02:30,1,1,1,1,1\n2024-03-10 03:00,1,1,1,1,1\n`;
    expect(() => parseCandleCsv(forward, york)).toThrow(
      'data.csv:4: time goes backwards: earlier than line 3 (2024-03-10 02:30 does not exist in America/New_York: the clocks went forward over it, so it reads as 03:30)',
    );
    const back = `${header}2024-11-03 01:00,1,1,1,1,1\n2024-11-03 01:30,1,1,1,1,1\n2024-11-03 01:00,1,1,1,1,1\n`;
    expect(() => parseCandleCsv(back, york)).toThrow(
      'data.csv:4: time goes backwards: earlier than line 3 (2024-11-03 01:00 happens twice in America/New_York: the clocks went back, and a time without an offset reads as the first; write the second with its offset, e.g. 2024-11-03T01:00-05:00)',
    );
    expect(() => parseCandleCsv(`${header}2024-03-11 10:00,1,1,1,1,1\n2024-03-11 09:00,1,1,1,1,1\n`, york)).toThrow(
      /earlier than line 2$/m,
    );
  });

  it('refuses a header without the required columns, without advising to skip rows', () => {
    const refusal = (): unknown => parseCandleCsv('when,price\n2020-01-01,1\n', options);
    expect(refusal).toThrow(/header lacks columns time\|date\|datetime\|timestamp, open, high, low, close, volume/);
    expect(refusal).toThrow(/^not a candle CSV file:/);
    expect(refusal).not.toThrow(/on-bad-row/);
  });

  it('says when a file is separated by semicolons or tabs rather than commas', () => {
    for (const [separator, name] of [
      [';', 'semicolons'],
      ['\t', 'tabs'],
    ] as const)
      expect(() =>
        parseCandleCsv(`${['date', 'open', 'high', 'low', 'close', 'volume'].join(separator)}\n2020-01-02;1;1;1;1;1\n`, options),
      ).toThrow(`its cells are separated by ${name}: candle CSV files are comma-separated`);
    expect(() => parseCandleCsv('when,price\n', options)).not.toThrow(/separated by/);
  });

  it('names a file with no bytes at all as empty', () => {
    expect(() => parseCandleCsv('', options)).toThrow(/:1: the file is empty/);
  });

  it('writes files the reader reads back to the same candles', () => {
    const text = 'datetime,open,high,low,close,volume\n2024-03-08 15:59,1.01,1.02,1,1.015,7\n2024-03-11 09:30,1.1,1.2,1.05,1.15,9\n';
    const first = parseCandleCsv(text, { ...options, timeZone: 'America/New_York', period: '1m' });
    const written = formatCandleCsv(first.candles, '1m', 'America/New_York');
    expect(written).toContain('2024-03-08T15:59:00-05:00');
    expect(written).toContain('2024-03-11T09:30:00-04:00');
    const second = parseCandleCsv(written, { ...options, timeZone: 'UTC', period: '1m' });
    expect(second.candles).toEqual(first.candles);
  });

  it('loads a folder by file name and merges symbols in time order', async () => {
    const dir = madeTempFolder('candles-');
    await writeFile(join(dir, '0700.HK.csv'), 'date,open,high,low,close,volume\n2020-01-02,1,1,1,1,1\n2020-01-06,1,1,1,1,1\n');
    await writeFile(join(dir, '5.HK.csv'), 'date,open,high,low,close,volume\n2020-01-03,2,2,2,2,1\n');
    await writeFile(join(dir, 'notes.csv'), 'whatever\n');
    const loaded = await loadCandles(dir);
    expect(loaded.series.map((s) => s.symbol)).toEqual(['700.HK', '5.HK']);
    const merged = mergeByTime(loaded.series.map((s) => s.candles));
    expect(merged.map((c) => c.symbol)).toEqual(['700.HK', '5.HK', '700.HK']);
    // The files it has that are named by a code alone are named: often the one meant (9988.csv for 9988.HK).
    await expect(loadCandles(dir, { symbols: [parseSymbol('9988.HK')] })).rejects.toThrow(
      `no candle file for 9988.HK in ${dir} (looked for 9988.HK.csv or 9988.csv, or .parquet); its file notes.csv is named by a code alone`,
    );
  });

  it('loads a file with a signal as without one, and stops with its reason once it has aborted', async () => {
    const file = join(madeTempFolder('candles-'), '700.HK.csv');
    await writeFile(file, 'date,open,high,low,close,volume\n2020-01-02,1,1,1,1,1\n2020-01-03,2,2,2,2,1\n');

    const loaded = await loadCandles(file, { signal: new AbortController().signal });

    expect(loaded.series.map((series) => ({ ...series.columns }))).toEqual(
      (await loadCandles(file)).series.map((series) => ({ ...series.columns })),
    );
    await expect(loadCandles(file, { signal: AbortSignal.abort(new Error('interrupted')) })).rejects.toThrow('interrupted');
  });

  it('says that one file named after another symbol holds that symbol, rather than that no file was found in it', async () => {
    const dir = madeTempFolder('candles-');
    const file = join(dir, 'SPY.US.csv');
    await writeFile(file, 'date,open,high,low,close,volume\n2020-01-02,1,1,1,1,1\n');
    await expect(loadCandles(file, { symbols: [parseSymbol('SPX.US')] })).rejects.toThrow(
      `${file} holds SPY.US (a candle file's name is its symbol), not SPX.US: give a file named SPX.US.csv or .parquet, or a folder of them`,
    );
  });

  it("reads a folder's file named by its code alone for the wanted symbol of that code (SPY.csv for SPY.US), a symbol's own file first", async () => {
    const dir = madeTempFolder('candles-');
    await writeFile(join(dir, 'spy.csv'), 'date,open,high,low,close,volume\n2020-01-02,3,3,3,3,1\n');
    await writeFile(join(dir, 'AAPL.csv'), 'date,open,high,low,close,volume\n2020-01-02,1,1,1,1,1\n');
    await writeFile(join(dir, 'AAPL.US.csv'), 'date,open,high,low,close,volume\n2020-01-02,2,2,2,2,1\n');
    await writeFile(join(dir, '0388.csv'), 'date,open,high,low,close,volume\n2020-01-02,4,4,4,4,1\n');
    const closes = async (symbols: string[]): Promise<Record<string, number>> => {
      const loaded = await loadCandles(dir, { symbols: symbols.map(parseSymbol) });
      return Object.fromEntries(loaded.series.map((series) => [series.symbol, series.columns.close[0]!]));
    };
    expect(await closes(['SPY.US', 'AAPL.US'])).toEqual({ 'SPY.US': 3, 'AAPL.US': 2 });
    expect(await closes(['388.HK'])).toEqual({ '388.HK': 4 });
    // Its times are read in the market of the symbol it stands for.
    const hk = await loadCandles(dir, { symbols: [parseSymbol('388.HK')] });
    expect(new Date(hk.series[0]!.columns.time[0]!).toISOString()).toBe('2020-01-01T16:00:00.000Z');
    // Without --symbols nothing says which market the code is in.
    await expect(loadCandles(dir)).resolves.toMatchObject({ series: [{ symbol: 'AAPL.US' }] });
    await expect(loadCandles(dir, { symbols: [parseSymbol('SPY.HK'), parseSymbol('SPY.US')] })).rejects.toThrow(
      'no candle file for SPY.HK, SPY.US',
    );
  });
});
