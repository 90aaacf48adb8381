// A small seeded random number generator (mulberry32) whose whole state is one integer, so runs repeat
// exactly for a given seed and the state survives a snapshot.

export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** True with probability `rate`; draws nothing when the rate is 0, so an unused knob never moves the stream. */
  chance(rate: number): boolean {
    if (rate <= 0) return false;
    return this.next() < rate;
  }

  getState(): number {
    return this.state;
  }

  setState(state: number): void {
    this.state = state >>> 0;
  }
}

/**
 * A seed for one independent stream, derived from the run's seed and a label (FNV-1a over both), so each
 * fault knob has its own sequence and switching one knob on does not shift the draws of another.
 */
export function deriveSeed(seed: number, label: string): number {
  let hash = 0x811c9dc5 ^ (seed >>> 0);
  for (let index = 0; index < label.length; index++) {
    hash ^= label.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
