// Collects the equity curve during a run without allocating per bar (typed arrays that double when full).
import type { EquityCurve } from '../result.js';

/** One point of the curve; a caller may reuse one object for every point (the recorder copies it). */
export interface EquityPoint {
  /** Bar start (epoch ms). */
  time: number;
  equity: number;
  exposed: boolean;
}

export interface EquityRecorder {
  /**
   * Adds the point of one bar time; call once per distinct bar time, after marking at the close. A point
   * object rather than two floats: floats passed to a call the compiler does not inline are boxed, two
   * heap numbers per bar time.
   */
  record(point: EquityPoint): void;
  /** Replaces the equity of the last point (the run's exact final figure for the float it was marked at). */
  settleLast(equity: number): void;
  /** The points so far, as views (no copy): record no more after taking the final curve. */
  curve(): EquityCurve;
}

export function createEquityRecorder(expectedPoints = 1024): EquityRecorder {
  return new TypedArrayRecorder(Math.max(16, expectedPoints));
}

// A class rather than a closure over `let`s: record() runs once per bar time and reads plain fields.
class TypedArrayRecorder implements EquityRecorder {
  private times: Float64Array;
  private equity: Float64Array;
  private exposed: Uint8Array;
  private length = 0;

  constructor(private capacity: number) {
    this.times = new Float64Array(capacity);
    this.equity = new Float64Array(capacity);
    this.exposed = new Uint8Array(capacity);
  }

  record(point: EquityPoint): void {
    if (this.length === this.capacity) {
      this.capacity *= 2;
      this.times = grow(this.times, new Float64Array(this.capacity));
      this.equity = grow(this.equity, new Float64Array(this.capacity));
      this.exposed = grow(this.exposed, new Uint8Array(this.capacity));
    }
    const index = this.length;
    this.times[index] = point.time;
    this.equity[index] = point.equity;
    this.exposed[index] = point.exposed ? 1 : 0;
    this.length = index + 1;
  }

  settleLast(equity: number): void {
    if (this.length > 0) this.equity[this.length - 1] = equity;
  }

  curve(): EquityCurve {
    return {
      times: this.times.subarray(0, this.length),
      equity: this.equity.subarray(0, this.length),
      exposed: this.exposed.subarray(0, this.length),
    };
  }
}

function grow<T extends Float64Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
