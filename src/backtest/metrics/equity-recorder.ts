// Collects the equity curve during a run without allocating per bar (typed arrays that double when full).
import type { EquityCurve } from '../result.js';

export interface EquityRecorder {
  /** Adds the point of one bar time; call once per distinct bar time, after marking at the close. */
  record(time: number, equity: number, exposed: boolean): void;
  /** The points so far, as views (no copy): record no more after taking the final curve. */
  curve(): EquityCurve;
}

export function createEquityRecorder(expectedPoints = 1024): EquityRecorder {
  let capacity = Math.max(16, expectedPoints);
  let times = new Float64Array(capacity);
  let equity = new Float64Array(capacity);
  let exposed = new Uint8Array(capacity);
  let length = 0;
  return {
    record(time, value, isExposed) {
      if (length === capacity) {
        capacity *= 2;
        times = grow(times, new Float64Array(capacity));
        equity = grow(equity, new Float64Array(capacity));
        exposed = grow(exposed, new Uint8Array(capacity));
      }
      times[length] = time;
      equity[length] = value;
      exposed[length] = isExposed ? 1 : 0;
      length += 1;
    },
    curve() {
      return { times: times.subarray(0, length), equity: equity.subarray(0, length), exposed: exposed.subarray(0, length) };
    },
  };
}

function grow<T extends Float64Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
