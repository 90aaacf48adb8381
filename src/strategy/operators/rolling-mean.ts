// The mean of the last `length` values, for operators that run on every bar of a backtest. trading-signals'
// SMA gives the same means, but hands each one back as a boxed number (a float returned from a call that
// is not inlined, and stored in a field that starts out undefined): two heap numbers per bar for a
// crossover's pair of averages, where the backtest's hot path must allocate nothing beyond the candle.
// This keeps the window in a ring, sums it oldest first from zero exactly as trading-signals' getAverage
// does (so every mean is the same float; the tests compare them), and leaves the mean in a field.
export class RollingMean {
  /** The mean of the last `length` values; meaningful once `add` has returned true. */
  mean = 0;
  private readonly window: Float64Array;
  private next = 0;
  private count = 0;

  constructor(readonly length: number) {
    this.window = new Float64Array(length);
  }

  /** Adds a value; true once the window is full (then `mean` is the mean of the last `length` values). */
  add(value: number): boolean {
    const window = this.window;
    const length = this.length;
    let next = this.next;
    window[next] = value;
    next = next + 1 === length ? 0 : next + 1;
    this.next = next;
    if (this.count < length) {
      this.count += 1;
      if (this.count < length) return false;
    }
    // Oldest first: the ring from the slot after the newest value, then from the start.
    let sum = 0;
    for (let index = next; index < length; index += 1) sum += window[index]!;
    for (let index = 0; index < next; index += 1) sum += window[index]!;
    this.mean = sum / length;
    return true;
  }
}
