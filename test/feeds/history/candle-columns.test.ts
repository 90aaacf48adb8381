import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src/domain/errors.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { BadDataError } from '../../../src/feeds/history/bad-data-error.js';
import { candleAt, columnsOf, placesOf } from '../../../src/feeds/history/candle-columns.js';
import { readCandleCsv } from '../../../src/feeds/history/candle-csv.js';

const AAPL = parseSymbol('AAPL.US');
const NEW_YORK = { symbol: AAPL, source: 'AAPL.US.csv', timeZone: 'America/New_York' };
const read = (text: string, options: Partial<Parameters<typeof readCandleCsv>[1]> = {}) =>
  readCandleCsv(Buffer.from(text, 'utf8'), { ...NEW_YORK, ...options });
const iso = (time: number | undefined): string => new Date(time!).toISOString();

describe('candle CSV into columns', () => {
  it('reads each price as the float Number() reads from its text, and counts the decimal places that hold them all', () => {
    const decimal = fc
      .tuple(fc.integer({ min: 1, max: 99_999_999 }), fc.integer({ min: 0, max: 6 }))
      .map(([units, places]) => (places === 0 ? String(units) : (units / 10 ** places).toFixed(places)));
    fc.assert(
      fc.property(fc.array(decimal, { minLength: 4, maxLength: 4 }), fc.integer({ min: 0, max: 10 ** 12 }), (prices, volume) => {
        const [open, close, low, high] = [...prices].sort((a, b) => Number(a) - Number(b)) as [string, string, string, string];
        const { columns } = read(`date,open,high,low,close,volume\n2024-01-02,${low},${high},${open},${close},${volume}\n`);
        expect([columns.open[0], columns.high[0], columns.low[0], columns.close[0], columns.volume[0]]).toEqual(
          [low, high, open, close, String(volume)].map(Number),
        );
        const places = Math.max(...prices.map((text) => placesOf(Number(text))));
        expect(columns.pricePlaces).toBe(places);
        for (const price of [columns.open[0]!, columns.high[0]!, columns.low[0]!, columns.close[0]!])
          expect(Number.isInteger(Math.round(price * 10 ** places)) && Math.round(price * 10 ** places) / 10 ** places).toBe(price);
      }),
      { numRuns: 300 },
    );
  });

  it('reads signs, exponents and long mantissas as decimals, and refuses prices of 0 or below, other bases, Infinity and digits no float holds', () => {
    const { columns } = read('date,open,high,low,close,volume\n2024-01-02,+1.5e1,1.6E1,14.00000000000001,15.0000000000000000,1e3\n');
    expect([columns.open[0], columns.high[0], columns.low[0], columns.close[0], columns.volume[0]]).toEqual(
      ['+1.5e1', '1.6E1', '14.00000000000001', '15', '1e3'].map(Number),
    );
    expect(columns.pricePlaces).toBe(14);
    const refused = (row: string) => () => read(`date,open,high,low,close,volume\n${row}\n`);
    expect(refused('2024-01-02,-1,1,1,1,1')).toThrow('AAPL.US.csv:2: open "-1": a price must be greater than 0');
    expect(refused('2024-01-02,0,0,0,0,0')).toThrow('AAPL.US.csv:2: open "0": a price must be greater than 0');
    expect(refused('2024-01-02,1,1,1,1,-3')).toThrow('AAPL.US.csv:2: negative volume "-3"');
    expect(refused('2024-01-02,0x61,0x62,0x60,0x61,1')).toThrow('AAPL.US.csv:2: unparseable open "0x61"');
    expect(refused('2024-01-02,1,1,1,1,0b1111')).toThrow('AAPL.US.csv:2: unparseable volume "0b1111"');
    expect(refused('2024-01-02,1,Infinity,1,1,1')).toThrow('AAPL.US.csv:2: unparseable high "Infinity"');
    // An empty cell says so, in the words the Parquet reader uses for a null.
    expect(refused('2024-01-02,1,1,1,,1')).toThrow('AAPL.US.csv:2: no close (an empty cell)');
    expect(refused(' ,1,1,1,1,1')).toThrow('AAPL.US.csv:2: no time (an empty cell)');
    expect(refused('2024-01-02,14,15,14.000000000000001,15,1')).toThrow(
      'AAPL.US.csv:2: low "14.000000000000001" has more digits than a float holds: it would be read as 14.000000000000002',
    );
    // A volume of 0 is a bar without trades, not a bad row.
    expect(read('date,open,high,low,close,volume\n2024-01-02,1,1,1,1,0\n').columns.volume[0]).toBe(0);
  });

  it('stamps date-only rows at local midnight, on daylight-saving days and across 1970 and 2038', () => {
    const { columns } = read(
      'date,open,high,low,close,volume\n1969-12-31,1,1,1,1,1\n2024-03-10,1,1,1,1,1\n2024-11-03,1,1,1,1,1\n2040-07-04,1,1,1,1,1\n',
    );
    expect(Array.from(columns.time, iso)).toEqual([
      '1969-12-31T05:00:00.000Z',
      '2024-03-10T05:00:00.000Z',
      '2024-11-03T04:00:00.000Z',
      '2040-07-04T04:00:00.000Z',
    ]);
    expect(columns.period).toBe('day');
  });

  it('resolves a local midnight the zone skipped to the first instant of that day', () => {
    const { columns } = read('date,open,high,low,close,volume\n2011-12-29,1,1,1,1,1\n2011-12-30,1,1,1,1,1\n2011-12-31,1,1,1,1,1\n', {
      timeZone: 'Pacific/Apia',
      onBadRow: 'skip',
    });
    // 2011-12-30 never began in Apia: it reads as the first instant after the jump, 2011-12-31 00:00 +14.
    expect(Array.from(columns.time, iso)).toEqual(['2011-12-29T10:00:00.000Z', '2011-12-30T10:00:00.000Z']);
  });

  it('reads date-times with T or a space, seconds and fractions, offsets, Z and epoch seconds or milliseconds', () => {
    const rows = [
      '2024-03-08T09:30,1,1,1,1,1',
      '2024-03-08 09:31:00,1,1,1,1,1',
      '2024-03-08T09:32:00.000,1,1,1,1,1',
      '2024-03-08T14:33:00Z,1,1,1,1,1',
      '2024-03-08T09:34:00-05:00,1,1,1,1,1',
      '2024-03-08T15:35:00+0100,1,1,1,1,1',
      `${Date.parse('2024-03-08T14:36:00Z') / 1000},1,1,1,1,1`,
      `${Date.parse('2024-03-08T14:37:00Z')},1,1,1,1,1`,
    ];
    const { columns } = read(`datetime,open,high,low,close,volume\n${rows.join('\n')}\n`);
    expect(Array.from(columns.time, iso)).toEqual([30, 31, 32, 33, 34, 35, 36, 37].map((minute) => `2024-03-08T14:${minute}:00.000Z`));
    expect(columns.period).toBe('1m');
  });

  it('reads 11-digit epoch times as ms (1970-04-26 to 1973-03-03; as seconds they would be the year 5138 on)', () => {
    const times = ['1972-12-01T00:00:00Z', '1973-02-01T00:00:00Z', '1973-06-01T00:00:00Z'].map(Date.parse);
    const { columns } = read(`time,open,high,low,close,volume\n${times.map((ms) => `${ms},1,1,1,1,1`).join('\n')}\n`);
    expect(Array.from(columns.time)).toEqual(times);
  });

  it('takes CRLF line ends, a byte-order mark, blank lines and padded cells, and counts lines as a text editor does', () => {
    const text = '\ufeffDate , Open,High,Low,Close,Volume\r\n\r\n 2024-01-02 , 1.5 ,2,1,1.5,10 \r\n2024-01-03,1,0.5,2,1,10\r\n';
    const result = read(text, { onBadRow: 'skip' });
    expect(Array.from(result.columns.close)).toEqual([1.5]);
    expect(result.problems).toEqual([{ source: 'AAPL.US.csv', line: 4, reason: 'high 0.5 is below low 2' }]);
  });

  it('refuses impossible dates and times', () => {
    const result = read(
      'datetime,open,high,low,close,volume\n2023-02-29,1,1,1,1,1\n2024-01-02T24:00,1,1,1,1,1\n2024-01-02T09:30+5,1,1,1,1,1\n',
      {
        onBadRow: 'skip',
      },
    );
    expect(result.problems.map((problem) => problem.reason)).toEqual([
      'unparseable time "2023-02-29"',
      'unparseable time "2024-01-02T24:00"',
      'unparseable time "2024-01-02T09:30+5"',
    ]);
  });

  it('keeps turnover where rows have it and NaN where they do not', () => {
    const { columns } = read('date,open,high,low,close,volume,turnover\n2024-01-02,1,1,1,1,10,10\n2024-01-03,1,1,1,1,10,\n');
    expect(Array.from(columns.turnover!)).toEqual([10, Number.NaN]);
    expect(candleAt(columns, 0)).toMatchObject({ turnover: 10 });
    expect('turnover' in candleAt(columns, 1)).toBe(false);
  });

  it('refuses a file out of time order whatever the bad-row policy, and says to sort it', () => {
    const rows = Array.from({ length: 40 }, (_, index) => `2024-02-${String(40 - index).padStart(2, '0')},1,1,1,1,1`).filter(
      (row) => Number(row.slice(8, 10)) <= 29,
    );
    for (const onBadRow of ['fail', 'skip'] as const) {
      const failure = (() => {
        try {
          read(`date,open,high,low,close,volume\n${rows.join('\n')}\n`, { onBadRow });
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      expect(failure).toBeInstanceOf(BadDataError);
      expect(failure).toBeInstanceOf(InvalidInputError);
      expect((failure as Error).message).toMatch(
        /^AAPL\.US\.csv: the rows are not in time order \(28 of 29 rows are earlier than a row above them\); sort the file by time/,
      );
      expect((failure as Error).message).not.toContain('--on-bad-row skip to drop them');
    }
  });

  it('still lists a few stray rows that go back in time as bad rows', () => {
    const rows = Array.from({ length: 28 }, (_, index) => `2024-02-${String(index + 1).padStart(2, '0')},1,1,1,1,1`);
    rows.splice(10, 0, '2024-01-05,1,1,1,1,1');
    expect(() => read(`date,open,high,low,close,volume\n${rows.join('\n')}\n`)).toThrow(
      '1 bad row in candle data (use --on-bad-row skip to drop them):\nAAPL.US.csv:12: time goes backwards: earlier than line 11',
    );
  });

  it('turns candles into columns and back unchanged', () => {
    const candles = [
      { symbol: AAPL, period: 'day' as const, time: 1, open: 1.25, high: 2, low: 1, close: 1.5, volume: 10 },
      { symbol: AAPL, period: 'day' as const, time: 2, open: 1.5, high: 2.125, low: 1, close: 2, volume: 20, turnover: 40 },
    ];
    const columns = columnsOf(candles, { symbol: AAPL, period: 'day', source: 'test' });
    expect([candleAt(columns, 0), candleAt(columns, 1)]).toEqual(candles);
    expect(columns.pricePlaces).toBe(3);
  });
});
