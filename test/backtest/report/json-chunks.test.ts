import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonChunks, MadeList } from '../../../src/backtest/report/json-chunks.js';
import { Money } from '../../../src/domain/money.js';

const reference = (document: Record<string, unknown>): string => `${JSON.stringify(document, null, 2)}\n`;
const joined = (document: Record<string, unknown>): string => [...jsonChunks(document)].join('');

describe('a JSON document in pieces', () => {
  it('is the text JSON.stringify writes with two-space indentation, for any document', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (document) => {
        expect(joined(document)).toBe(reference(document));
      }),
      { numRuns: 2_000 },
    );
  });

  it('writes what JSON.stringify writes for values it leaves out or turns into null, and for toJSON', () => {
    const document = {
      skipped: undefined,
      call: () => 1,
      list: [undefined, () => 1, Symbol('s'), { inner: undefined, kept: 1 }, [], {}],
      empty: [],
      money: Money.of('12.50', 'USD'),
      nested: { fills: [{ price: Money.of('1', 'USD') }] },
    };
    expect(joined(document)).toBe(reference(document));
    expect(joined({})).toBe(reference({}));
    expect(joined({ only: undefined })).toBe(reference({ only: undefined }));
  });

  it('writes a long list in pieces of bounded size', () => {
    const document = {
      fills: Array.from({ length: 5000 }, (_, index) => ({ index, price: `${index}.5`, tag: index % 3 === 0 ? null : 'x' })),
    };
    const chunks = [...jsonChunks(document)];
    expect(chunks.length).toBeGreaterThan(10);
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(100_000);
    expect(chunks.join('')).toBe(reference(document));
  });

  it('writes a made list as the array of its elements, making each only when its piece is written', () => {
    const row = (index: number) => ({ index, price: `${index}.25` });
    let made = 0;
    const list = new MadeList(3000, (index) => ((made += 1), row(index)));
    const pieces = jsonChunks({ head: 1, fills: list, tail: [] });
    const written: string[] = [];
    for (const piece of pieces) {
      written.push(piece);
      // Never more made than the pieces written so far hold, and at most one piece ahead.
      expect(made).toBeLessThanOrEqual(written.join('').split('"index"').length - 1 + 512);
    }
    expect(made).toBe(3000);
    expect(written.join('')).toBe(reference({ head: 1, fills: Array.from({ length: 3000 }, (_, index) => row(index)), tail: [] }));
    expect(JSON.stringify(new MadeList(2, row))).toBe(JSON.stringify([row(0), row(1)]));
    expect(joined({ none: new MadeList(0, row) })).toBe(reference({ none: [] }));
  });
});
