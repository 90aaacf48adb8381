import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listOf } from '../../src/domain/list-of.js';

describe('listOf', () => {
  it('makes what Array.prototype.map makes, in order, each item with its index', () => {
    fc.assert(
      fc.property(fc.array(fc.anything()), (items) => {
        const make = (item: unknown, index: number) => ({ item, index });
        expect(listOf(items, make)).toEqual(items.map(make));
      }),
    );
  });

  it('makes an empty list from no items, and never calls make', () => {
    let calls = 0;
    expect(
      listOf([], () => {
        calls += 1;
      }),
    ).toEqual([]);
    expect(calls).toBe(0);
  });
});
