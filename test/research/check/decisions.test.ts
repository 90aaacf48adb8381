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

  it('ignores the times when told to compare only what was decided', () => {
    expect(firstDifference([{ time: 5, text: sell }], [{ time: 7, text: sell }], false)).toBeUndefined();
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
