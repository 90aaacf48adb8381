// Pushes a driver collected, and a way to wait for one that matches (already here or still to come), guarded
// by a real-time timeout so a broken test fails instead of hanging.
export class Pushes<T> {
  readonly all: T[] = [];
  private readonly waiters = new Set<() => void>();

  add(value: T): void {
    this.all.push(value);
    for (const waiter of [...this.waiters]) waiter();
  }

  next(predicate: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const found = this.all.find(predicate);
        if (found === undefined) return;
        this.waiters.delete(check);
        clearTimeout(guard);
        resolve(found);
      };
      const guard = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no matching push within ${timeoutMs} ms; got ${JSON.stringify(this.all)}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }
}
