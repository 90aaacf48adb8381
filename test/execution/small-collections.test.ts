import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SmallMap, SmallSet } from '../../src/execution/small-collections.js';

// Keys from a small pool, so that the same key is set, deleted and set again; enough of them to cross the
// size where the collections move to a Map or Set.
const key = fc.integer({ min: 0, max: 40 }).map((n) => `k${n}`);
const operations = fc.array(fc.tuple(fc.constantFrom('set', 'delete', 'get'), key, fc.integer()), { maxLength: 200 });

describe('small collections', () => {
  it('answer exactly as a Map does, through any run of sets and deletes', () => {
    fc.assert(
      fc.property(operations, (steps) => {
        const small = new SmallMap<number>();
        const map = new Map<string, number>();
        for (const [operation, name, value] of steps) {
          if (operation === 'set') {
            small.set(name, value);
            map.set(name, value);
          } else if (operation === 'delete') {
            small.delete(name);
            map.delete(name);
          }
          expect([small.get(name), small.has(name)]).toEqual([map.get(name), map.has(name)]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keep the members of a Set in its insertion order', () => {
    fc.assert(
      fc.property(operations, (steps) => {
        const small = new SmallSet<string>();
        const set = new Set<string>();
        for (const [operation, name] of steps) {
          if (operation === 'set') {
            small.add(name);
            set.add(name);
          } else if (operation === 'delete') {
            small.delete(name);
            set.delete(name);
          }
          expect(small.has(name)).toBe(set.has(name));
          expect(small.items).toEqual([...set]);
        }
      }),
      { numRuns: 500 },
    );
  });
});
