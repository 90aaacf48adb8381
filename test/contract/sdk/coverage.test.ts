// Done means every call of the official Node SDK is driven against the simulator next to ours: the calls listed
// in sdk-calls.ts (each parity file checks it made its own) must be exactly the SDK's methods.
import { Config, HttpClient, QuoteContext, TradeContext } from 'longport';
import { describe, expect, it } from 'vitest';
import { SDK_CALLS } from './sdk-calls.js';

function methodsOf(type: { prototype: object }, name: string): string[] {
  return Object.getOwnPropertyNames(type.prototype)
    .filter(
      (property) => property !== 'constructor' && typeof Object.getOwnPropertyDescriptor(type.prototype, property)?.value === 'function',
    )
    .map((property) => `${name}.${property}`);
}

describe('the parity suite covers the official SDK', () => {
  it('lists every method of QuoteContext, TradeContext, Config and HttpClient once: 65 calls', () => {
    const sdk = [
      ...methodsOf(QuoteContext, 'QuoteContext'),
      ...methodsOf(TradeContext, 'TradeContext'),
      ...methodsOf(Config, 'Config'),
      ...methodsOf(HttpClient, 'HttpClient'),
    ];
    const listed = Object.values(SDK_CALLS).flat();
    expect([...listed].sort()).toEqual([...sdk].sort());
    expect(new Set(listed).size).toBe(65);
  });
});
