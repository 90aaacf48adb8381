// A bounded list that keeps the newest entries (recent fills, denials, log lines).

export class Ring<T> {
  private readonly items: T[] = [];

  constructor(private readonly limit: number) {}

  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.limit) this.items.splice(0, this.items.length - this.limit);
  }

  /** Newest first. */
  newestFirst(): T[] {
    return [...this.items].reverse();
  }

  get last(): T | undefined {
    return this.items[this.items.length - 1];
  }

  replaceLast(item: T): void {
    if (this.items.length === 0) this.items.push(item);
    else this.items[this.items.length - 1] = item;
  }

  toArray(): readonly T[] {
    return this.items;
  }

  get size(): number {
    return this.items.length;
  }
}
