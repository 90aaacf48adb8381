// The fast row reader (the time,open,high,low,close,volume layout) against the general one: the same
// columns, places, period and problems for any file, clean or not. The general reader is the reference. And a
// read in pieces (a load a Ctrl-C may stop) against a read at once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BadDataError } from '../../../src/feeds/history/bad-data-error.js';
import { readCandleCsv, readCandleCsvInPieces } from '../../../src/feeds/history/candle-csv.js';
import type { LoadedColumns } from '../../../src/feeds/history/loaded-columns.js';
import { parseSymbol } from '../../../src/domain/symbol.js';

const OPTIONS = { symbol: parseSymbol('AAPL.US'), source: 'AAPL.US.csv', timeZone: 'America/New_York', onBadRow: 'skip' } as const;

/** What a reader made of a file: its columns as plain arrays and its verdict. */
function readWith(text: string, rowReader: 'fast' | 'general', onBadRow: 'skip' | 'fail' = 'skip'): unknown {
  try {
    return described(readCandleCsv(Buffer.from(text, 'utf8'), { ...OPTIONS, onBadRow }, rowReader));
  } catch (error) {
    return failure(error);
  }
}

/** readWith for a read of `piece` bytes at a time. */
async function readInPiecesWith(text: string, piece: number, onBadRow: 'skip' | 'fail' = 'skip'): Promise<unknown> {
  try {
    return described(await readCandleCsvInPieces(Buffer.from(text, 'utf8'), { ...OPTIONS, onBadRow }, new AbortController().signal, piece));
  } catch (error) {
    return failure(error);
  }
}

function described({ columns, problems, skippedRows }: LoadedColumns): unknown {
  const fields = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;
  return {
    period: columns.period,
    length: columns.length,
    places: [columns.pricePlaces, columns.volumePlaces],
    ...Object.fromEntries(fields.map((field) => [field, Array.from(columns[field])])),
    turnover: columns.turnover === undefined ? undefined : Array.from(columns.turnover),
    problems,
    skippedRows,
  };
}

function failure(error: unknown): unknown {
  return { error: error instanceof BadDataError ? error.message : String(error) };
}

const price = fc.oneof(
  fc.integer({ min: 0, max: 100_000 }).map(String),
  fc
    .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 9_999 }), fc.integer({ min: 1, max: 4 }))
    .map(([whole, part, places]) => `${whole}.${String(part).padStart(places, '0').slice(0, places)}`),
  fc.constantFrom('0.5', '12.', '.5', '1e3', '-1', ' 7', '7 ', '', 'x', '1234567890123456', '"8"', '"8.25"', '"', '""', '"9'),
);
const time = (day: number, minute: number, dateOnly: boolean): string => {
  const date = new Date(Date.UTC(2024, 0, 2) + day * 86_400_000).toISOString().slice(0, 10);
  return dateOnly ? date : `${date} ${String(9 + Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
};
const line = (dateOnly: boolean) =>
  fc
    .oneof(
      {
        weight: 8,
        arbitrary: fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 300 }), price, price, price, price, price),
      },
      { weight: 1, arbitrary: fc.constantFrom('', ' ', 'garbage', '2024-13-01,1,1,1,1,1', '2024-01-02,1,2,3') },
    )
    .map((row) => {
      if (typeof row === 'string') return row;
      const [day, minute, open, high, low, close, volume] = row;
      const when = time(day, minute, dateOnly);
      return `${day % 5 === 0 ? `"${when}"` : when},${open},${high},${low},${close},${volume}`;
    });
const files = fc.boolean().chain((dateOnly) =>
  fc
    // Now and then a row of the other form (a date alone among timed rows, or the reverse).
    .tuple(
      fc.array(fc.oneof({ weight: 12, arbitrary: line(dateOnly) }, { weight: 1, arbitrary: line(!dateOnly) }), { maxLength: 40 }),
      fc.constantFrom('\n', '\r\n'),
      fc.boolean(),
    )
    .map(([lines, newline, last]) => `date,open,high,low,close,volume${newline}${lines.join(newline)}${last ? newline : ''}`),
);

describe('the fast row reader', () => {
  it('reads every file as the general reader does, clean or not, under either bad-row policy', () => {
    fc.assert(
      fc.property(files, fc.constantFrom('skip' as const, 'fail' as const), (text, onBadRow) => {
        expect(readWith(text, 'fast', onBadRow)).toEqual(readWith(text, 'general', onBadRow));
      }),
      { numRuns: 3_000 },
    );
  });

  it('refuses a date alone among timed rows, and a time among dates alone, naming the line', () => {
    const timed = 'datetime,open,high,low,close,volume\n2024-03-08 10:00,1,1,1,1,1\n2024-03-11,1,1,1,1,1\n2024-03-11 10:00,1,1,1,1,1\n';
    const dated = 'date,open,high,low,close,volume\n2024-03-08,1,1,1,1,1\n2024-03-11 10:00,1,1,1,1,1\n2024-03-12,1,1,1,1,1\n';
    for (const reader of ['fast', 'general'] as const) {
      expect(readWith(timed, reader)).toMatchObject({
        length: 2,
        problems: [{ line: 3, reason: 'a date without a time among rows with times' }],
      });
      expect(readWith(dated, reader)).toMatchObject({
        length: 2,
        problems: [{ line: 3, reason: 'a time of day among rows of dates alone' }],
      });
    }
  });

  it('reads sorted clean rows, the common case, as the general reader does', () => {
    const rows = Array.from({ length: 500 }, (_, index) => {
      const base = 100 + (index % 37) * 0.25;
      return `${time(Math.floor(index / 390), index % 390, false)},${base},${base + 1.5},${base - 0.75},${base + 0.5},${1000 + index}`;
    });
    const text = `datetime,open,high,low,close,volume\n${rows.join('\n')}\n`;
    expect(readWith(text, 'fast')).toEqual(readWith(text, 'general'));
    expect((readWith(text, 'fast') as { length: number }).length).toBe(500);
  });
});

describe('a read in pieces', () => {
  it('reads every file a few bytes at a time as at once, clean or not, under either bad-row policy', async () => {
    await fc.assert(
      fc.asyncProperty(
        files,
        fc.integer({ min: 1, max: 64 }),
        fc.constantFrom('skip' as const, 'fail' as const),
        async (text, piece, onBadRow) => {
          expect(await readInPiecesWith(text, piece, onBadRow)).toEqual(readWith(text, 'fast', onBadRow));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses a long table of several symbols as a read at once does, and reads one of one symbol', async () => {
    const table = (second: string) =>
      `symbol,date,open,high,low,close,volume\nAAPL,2024-01-02,1,2,1,2,10\nAAPL,2024-01-03,2,3,2,3,10\n${second},2024-01-04,3,4,3,4,10\n`;
    for (const text of [table('MSFT'), table('AAPL')])
      for (const piece of [1, 5, 40]) expect(await readInPiecesWith(text, piece)).toEqual(readWith(text, 'fast'));
    expect(readWith(table('MSFT'), 'fast')).toMatchObject({ error: expect.stringContaining('(AAPL from line 2, MSFT from line 4)') });
  });
});
