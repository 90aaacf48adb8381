// Collections for the handful of orders a runtime has open at a time. A Map or Set that empties and refills
// on every order allocates a new table each time (V8 shrinks it when it empties); these search a short
// array instead, and move to a Map or Set once they hold more than a few entries.

const SMALL = 16;

/** String keys to values. */
export class SmallMap<V> {
  private readonly keys: string[] = [];
  private readonly values: V[] = [];
  private map: Map<string, V> | undefined;

  get(key: string): V | undefined {
    if (this.map !== undefined) return this.map.get(key);
    const index = this.keys.indexOf(key);
    return index < 0 ? undefined : this.values[index];
  }

  has(key: string): boolean {
    return this.map !== undefined ? this.map.has(key) : this.keys.includes(key);
  }

  set(key: string, value: V): void {
    if (this.map !== undefined) {
      this.map.set(key, value);
      return;
    }
    const index = this.keys.indexOf(key);
    if (index >= 0) {
      this.values[index] = value;
      return;
    }
    this.keys.push(key);
    this.values.push(value);
    if (this.keys.length > SMALL) this.map = new Map(this.keys.map((one, position) => [one, this.values[position]!] as const));
  }

  delete(key: string): void {
    if (this.map !== undefined) {
      this.map.delete(key);
      return;
    }
    const index = this.keys.indexOf(key);
    if (index < 0) return;
    removeAt(this.keys, index);
    removeAt(this.values, index);
  }
}

/** A set in insertion order (by identity), iterated through `items`. */
export class SmallSet<T> {
  /** The members, oldest first; read only. */
  readonly items: T[] = [];
  private index: Set<T> | undefined;

  has(item: T): boolean {
    return this.index !== undefined ? this.index.has(item) : this.items.includes(item);
  }

  add(item: T): void {
    if (this.has(item)) return;
    this.items.push(item);
    if (this.index !== undefined) this.index.add(item);
    else if (this.items.length > SMALL) this.index = new Set(this.items);
  }

  delete(item: T): void {
    if (this.index !== undefined && !this.index.delete(item)) return;
    const position = this.items.indexOf(item);
    if (position >= 0) removeAt(this.items, position);
  }
}

// In place, keeping the order (splice would allocate an array of what it removed).
function removeAt<T>(list: T[], index: number): void {
  for (let position = index + 1; position < list.length; position += 1) list[position - 1] = list[position]!;
  list.pop();
}
