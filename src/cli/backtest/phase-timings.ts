// `trader backtest --timings`: how long each phase of the process took (start-up, load, walk, write, from
// the process start) and its peak memory, printed as one line on stderr. The bench reads it.
import { performance } from 'node:perf_hooks';

export type Phase = 'start-up' | 'load' | 'walk' | 'write';

export class PhaseTimings {
  private readonly phases: [Phase, number][] = [];
  /** performance.now() counts from the process start (timeOrigin), so the first phase includes start-up. */
  private last = 0;

  /** Ends `phase` now. */
  end(phase: Phase): void {
    const now = performance.now();
    this.phases.push([phase, now - this.last]);
    this.last = now;
  }

  /** "timings: start-up 412 ms · load 38 ms · walk 220 ms · write 9 ms · total 679 ms · peak RSS 152 MB" */
  line(): string {
    const phases = this.phases.map(([phase, ms]) => `${phase} ${ms.toFixed(0)} ms`);
    const peakMb = process.resourceUsage().maxRSS / 1024;
    return `timings: ${[...phases, `total ${this.last.toFixed(0)} ms`, `peak RSS ${peakMb.toFixed(0)} MB`].join(' · ')}\n`;
  }
}
