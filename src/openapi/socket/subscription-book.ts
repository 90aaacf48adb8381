// Reference counts of quote subscriptions per symbol and kind: the first consumer of a (symbol, kind)
// subscribes on the wire, the last one unsubscribes, and a reconnect restores exactly what is held.
import type { SubType } from './commands.js';

export class SubscriptionBook {
  private readonly counts = new Map<string, Map<SubType, number>>();

  /** Distinct symbols held (any kind): what the service's 500-symbol limit counts. */
  get symbolCount(): number {
    return this.counts.size;
  }

  /** How many distinct symbols would be held after adding these. */
  countWith(symbols: readonly string[]): number {
    return this.counts.size + new Set(symbols.filter((symbol) => !this.counts.has(symbol))).size;
  }

  /** Adds one reference per symbol; returns the symbols that now need a wire subscription. */
  add(symbols: readonly string[], kind: SubType): string[] {
    const fresh: string[] = [];
    for (const symbol of new Set(symbols)) {
      const kinds = this.counts.get(symbol) ?? new Map<SubType, number>();
      const count = kinds.get(kind) ?? 0;
      kinds.set(kind, count + 1);
      this.counts.set(symbol, kinds);
      if (count === 0) fresh.push(symbol);
    }
    return fresh;
  }

  /** Drops one reference per symbol; returns the symbols whose last reference of this kind went. */
  remove(symbols: readonly string[], kind: SubType): string[] {
    const gone: string[] = [];
    for (const symbol of new Set(symbols)) {
      const kinds = this.counts.get(symbol);
      const count = kinds?.get(kind) ?? 0;
      if (kinds === undefined || count === 0) continue;
      if (count > 1) {
        kinds.set(kind, count - 1);
        continue;
      }
      kinds.delete(kind);
      if (kinds.size === 0) this.counts.delete(symbol);
      gone.push(symbol);
    }
    return gone;
  }

  /** Held symbols per kind, for restoring after a reconnect. */
  byKind(): Map<SubType, string[]> {
    const result = new Map<SubType, string[]>();
    for (const [symbol, kinds] of this.counts) {
      for (const kind of kinds.keys()) result.set(kind, [...(result.get(kind) ?? []), symbol]);
    }
    return result;
  }
}
