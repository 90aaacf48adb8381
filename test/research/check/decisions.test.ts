import { describe, expect, it } from 'vitest';
import { firstDifference } from '../../../src/research/check/decisions.js';

const buy = '{"kind":"order","side":"Buy"}';
const sell = '{"kind":"order","side":"Sell"}';

describe('firstDifference', () => {
  it('finds nothing in equal lists', () => {
    expect(firstDifference([{ time: 1, text: buy }], [{ time: 1, text: buy }])).toBeUndefined();
  });

  it('gives each side its own time when they decided the same thing on different bars', () => {
    expect(
      firstDifference(
        [
          { time: 1, text: buy },
          { time: 5, text: sell },
        ],
        [
          { time: 1, text: buy },
          { time: 7, text: sell },
        ],
      ),
    ).toEqual({
      index: 1,
      time: 5,
      expected: sell,
      actual: sell,
      expectedTime: 5,
      actualTime: 7,
    });
  });

  it('takes two times as the same when told so (parity: the same bar of the data)', () => {
    const sameTen = (a: number, b: number) => Math.floor(a / 10) === Math.floor(b / 10);
    expect(firstDifference([{ time: 5, text: sell }], [{ time: 7, text: sell }], sameTen)).toBeUndefined();
    expect(firstDifference([{ time: 5, text: sell }], [{ time: 12, text: sell }], sameTen)).toMatchObject({
      expectedTime: 5,
      actualTime: 12,
    });
  });

  it('reports a decision one side lacks with no time for that side', () => {
    expect(firstDifference([{ time: 3, text: buy }], [])).toEqual({
      index: 0,
      time: 3,
      expected: buy,
      actual: undefined,
      expectedTime: 3,
      actualTime: undefined,
    });
  });
});
