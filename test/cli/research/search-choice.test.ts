// The research commands' search flags: what they default to, and each bad value refused, naming its flag.
import { describe, expect, it } from 'vitest';
import { type ResearchArgs, SEARCH_OPTIONS, searchChoice } from '../../../src/cli/research/setup.js';
import { OBJECTIVE_NAMES } from '../../../src/research/objective.js';

const args = (more: Partial<ResearchArgs> = {}): ResearchArgs => ({ strategy: 's.ts', param: ['fast=5:10'], ...more }) as ResearchArgs;

describe('the search flags', () => {
  it('default to a grid ranked by sharpe, seed 1, 16 blocks', () => {
    expect(searchChoice(args())).toMatchObject({ search: 'grid', seed: 1, blocks: 16, minTrades: 0, objective: { metric: 'sharpe' } });
  });

  it.each([
    [{ top: 0 }, '--top: a whole number ≥ 1, got 0'],
    [{ top: -1 }, '--top: a whole number ≥ 1, got -1'],
    [{ workers: 0 }, '--workers: a whole number ≥ 1, got 0'],
    [{ search: 'random', trials: 2.5 }, '--trials: a whole number ≥ 1, got 2.5'],
    [{ trials: 10 }, '--trials: only with --search random (a grid runs every combination)'],
    [{ blocks: 3 }, '--blocks: an even number from 2 to 20, got 3'],
    [{ search: 'bayes' }, '--search: grid or random, got bayes'],
    [{ 'queue-window': 100 }, '--queue-window: only with --queue'],
    // The generator keeps 32 bits: 2^32 would draw what 0 does. Echoed as typed, not as the rounded number.
    [{ seed: '4294967296' }, '--seed: a whole number from 0 to 4294967295, got 4294967296'],
    [{ seed: '99999999999999999999' }, '--seed: a whole number from 0 to 4294967295, got 99999999999999999999'],
    [{ seed: '-1' }, '--seed: a whole number from 0 to 4294967295, got -1'],
    [{ seed: '7.5' }, '--seed: a whole number from 0 to 4294967295, got 7.5'],
  ] as const)('refuses %j', (more, message) => {
    expect(() => searchChoice(args(more as Partial<ResearchArgs>))).toThrow(message);
  });

  it('takes every seed from 0 to 2^32 − 1', () => {
    expect(searchChoice(args({ seed: '0' })).seed).toBe(0);
    expect(searchChoice(args({ seed: '4294967295' })).seed).toBe(4_294_967_295);
  });

  it('lists in --help every metric --objective takes', () => {
    for (const name of OBJECTIVE_NAMES) expect(SEARCH_OPTIONS.objective.describe).toContain(name);
  });
});
