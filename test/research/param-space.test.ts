import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/domain/errors.js';
import { parseConstraint, parseObjective, satisfies, withCalmar } from '../../src/research/objective.js';
import { comboAt, type ParamSpace, parseParamSpace, shuffledPositions, spaceSize } from '../../src/research/param-space.js';

/** The first `count` positions a random search of `space` draws with `seed` (all of them when it has fewer). */
function drawn(space: ParamSpace, count: number, seed: number): number[] {
  const positions: number[] = [];
  for (const position of shuffledPositions(spaceSize(space), seed)) {
    if (positions.length === count) break;
    positions.push(position);
  }
  return positions;
}

describe('parameter space', () => {
  it('reads ranges with their ends, lists and fixed values', () => {
    const space = parseParamSpace(['fast=5:30:5', 'slow=20:40', 'mode=a,b', 'quantity=100', 'rate=0.1:0.3:0.1']);
    expect(space.map((axis) => axis.values)).toEqual([
      ['5', '10', '15', '20', '25', '30'],
      Array.from({ length: 21 }, (_, index) => String(20 + index)),
      ['a', 'b'],
      ['100'],
      ['0.1', '0.2', '0.3'],
    ]);
    expect(spaceSize(space)).toBe(6 * 21 * 2 * 3);
  });

  it('refuses malformed specs with the flag and the reason', () => {
    expect(() => parseParamSpace(['fast'])).toThrow(InvalidInputError);
    expect(() => parseParamSpace(['fast=30:5'])).toThrow(/end is before the start/);
    expect(() => parseParamSpace(['fast=1:5:0'])).toThrow(/step/);
    expect(() => parseParamSpace(['fast=a:b'])).toThrow(/numbers/);
    expect(() => parseParamSpace(['fast=1', 'fast=2'])).toThrow(/twice/);
    expect(() => parseParamSpace(['fast=5,,7'])).toThrow('--param fast=5,,7: an empty value in the list');
    expect(() => parseParamSpace(['fast=5,7,'])).toThrow(/an empty value in the list/);
    expect(() => parseParamSpace(['fast='])).toThrow('--param fast: no value');
  });

  it('walks the grid with the last parameter fastest', () => {
    const space = parseParamSpace(['a=1:2', 'b=x,y,z']);
    expect([0, 1, 2, 3, 5].map((index) => comboAt(space, index))).toEqual([
      { a: '1', b: 'x' },
      { a: '1', b: 'y' },
      { a: '1', b: 'z' },
      { a: '2', b: 'x' },
      { a: '2', b: 'z' },
    ]);
  });

  it('draws the same distinct random positions for the same seed, others for another', () => {
    const space = parseParamSpace(['a=1:100', 'b=1:100']);
    const first = drawn(space, 50, 7);
    expect(drawn(space, 50, 7)).toEqual(first);
    expect(new Set(first).size).toBe(50);
    expect(first.every((position) => position >= 0 && position < 10_000)).toBe(true);
    expect(drawn(space, 50, 8)).not.toEqual(first);
    expect(drawn(parseParamSpace(['a=1:3']), 10, 1).sort()).toEqual([0, 1, 2]);
  });

  it('refuses a seed its 32 bits of state cannot hold, rather than drawing what seed mod 2^32 does', () => {
    const space = parseParamSpace(['a=1:100', 'b=1:100']);
    expect(drawn(space, 5, 2 ** 32 - 1)).toHaveLength(5);
    for (const seed of [2 ** 32, -1, 1.5, 1e20])
      expect(() => drawn(space, 5, seed)).toThrow(`seed: a whole number from 0 to 2^32 − 1, got ${seed}`);
  });
});

describe('objective and constraints', () => {
  it('ranks drawdown downwards unless told otherwise', () => {
    expect(parseObjective('sharpe')).toEqual({ metric: 'sharpe', direction: 'max' });
    expect(parseObjective('maxDrawdown')).toEqual({ metric: 'maxDrawdown', direction: 'min' });
    expect(parseObjective('cagr:min')).toEqual({ metric: 'cagr', direction: 'min' });
    expect(() => parseObjective('luck')).toThrow(/unknown metric "luck"/);
  });

  it('takes metric names in any case', () => {
    expect(parseObjective('maxdrawdown')).toEqual({ metric: 'maxDrawdown', direction: 'min' });
    expect(parseObjective('TotalReturn:max')).toEqual({ metric: 'totalReturn', direction: 'max' });
    expect(parseConstraint('maxdrawdown<0.2')).toMatchObject({ metric: 'maxDrawdown', operator: '<', value: 0.2 });
    expect(() => parseConstraint('drawdown<0.2')).toThrow(/unknown metric "drawdown"/);
  });

  it('checks constraints, failing on a null metric', () => {
    const metrics = withCalmar({ cagr: 0.1, maxDrawdown: 0.25, profitFactor: null } as never);
    expect(metrics.calmar).toBeCloseTo(0.4);
    expect(satisfies(metrics, parseConstraint('maxDrawdown<0.2'))).toBe(false);
    expect(satisfies(metrics, parseConstraint('maxDrawdown <= 0.25'))).toBe(true);
    expect(satisfies(metrics, parseConstraint('profitFactor>1'))).toBe(false);
    expect(() => parseConstraint('drawdown is small')).toThrow(/expected METRIC<VALUE/);
  });

  it('refuses a value that is not a number rather than failing every trial on it', () => {
    // 'sharpe>0.1.2' and 'sharpe>.' once parsed to NaN, which no metric is greater than: an empty ranking.
    for (const text of ['sharpe>0.1.2', 'sharpe>.', 'sharpe>1e', 'sharpe>-']) {
      expect(() => parseConstraint(text), text).toThrow(/expected METRIC<VALUE/);
    }
  });

  it('takes a decimal with a sign or an exponent (either case of e)', () => {
    expect(parseConstraint('sharpe>1E-3').value).toBe(0.001);
    expect(parseConstraint('sharpe>+1').value).toBe(1);
    expect(parseConstraint('sharpe>.5').value).toBe(0.5);
    expect(parseConstraint('maxDrawdown<=1.1245548287838707e-1').value).toBe(0.11245548287838707);
  });
});
