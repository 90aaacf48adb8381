// `trader backtest --timings`: how long each phase of the process took (start-up, load, walk, write, from
// the process start), in wall time and in CPU time (this process's threads, GC included: on a shared
// machine the steadier figure), the resident memory at the end of each phase and its peak, printed as
// three lines on stderr. The bench reads them.
import { performance } from 'node:perf_hooks';
import type { LoadThreads } from '../../feeds/history/parallel-load.js';

export type Phase = 'start-up' | 'load' | 'walk' | 'write';

export class PhaseTimings {
  private readonly phases: [Phase, number, number, number][] = [];
  /** Heap and array buffers held after a full collection, per phase (only when node runs with --expose-gc). */
  private readonly held: [Phase, number][] = [];
  /** How the data files were read, as a line. */
  private loading = '';
  /** performance.now() counts from the process start (timeOrigin), so the first phase includes start-up. */
  private lastWall = 0;
  /** CPU time is counted from the process start too. */
  private lastCpu = 0;

  /** Ends `phase` now. */
  end(phase: Phase): void {
    const wall = performance.now();
    const usage = process.cpuUsage();
    const cpu = (usage.user + usage.system) / 1000;
    this.phases.push([phase, wall - this.lastWall, cpu - this.lastCpu, process.memoryUsage.rss() / 1024 / 1024]);
    this.lastWall = wall;
    this.lastCpu = cpu;
    // What the process holds (not what it has touched): measured outside the timed phases, for the memory bench.
    const collect = (globalThis as { gc?: () => void }).gc;
    if (collect !== undefined) {
      // Twice: array buffers dropped in the first collection are only counted out after a second one (a
      // Parquet load drops one per page).
      collect();
      collect();
      const memory = process.memoryUsage();
      this.held.push([phase, (memory.heapUsed + memory.arrayBuffers) / 1024 / 1024]);
      this.lastWall = performance.now();
      const after = process.cpuUsage();
      this.lastCpu = (after.user + after.system) / 1000;
    }
  }

  /** Notes how `files` data files were read (one thread, or two and what the helper read). */
  loadedOn(files: number, threads: LoadThreads | undefined): void {
    if (threads === undefined) return;
    const what = `load: ${files} file${files === 1 ? '' : 's'} on ${threads.threads} thread${threads.threads === 1 ? '' : 's'}`;
    this.loading =
      threads.helperFailure !== undefined
        ? `${what}, the helper thread failed (${threads.helperFailure}): this thread read them all\n`
        : `${what}${threads.threads === 2 ? ` (the helper read ${threads.helperFiles})` : ''}\n`;
  }

  /**
   * timings: start-up 412 ms · load 38 ms · walk 220 ms · write 9 ms · total 679 ms · peak RSS 152 MB
   * cpu: start-up 520 ms · load 36 ms · walk 231 ms · write 9 ms · total 796 ms
   * RSS after: start-up 98 MB · load 120 MB · walk 140 MB · write 150 MB
   * load: 500 files on 2 threads (the helper read 231)
   */
  lines(): string {
    const line = (label: string, at: 1 | 2, total: number): string =>
      `${label}: ${[...this.phases.map((phase) => `${phase[0]} ${phase[at].toFixed(0)} ms`), `total ${total.toFixed(0)} ms`].join(' · ')}`;
    const peakMb = process.resourceUsage().maxRSS / 1024;
    const memory = `RSS after: ${this.phases.map((phase) => `${phase[0]} ${phase[3].toFixed(0)} MB`).join(' · ')}`;
    const held =
      this.held.length === 0
        ? ''
        : `held after (heap + array buffers, after a full collection): ${this.held.map(([phase, mb]) => `${phase} ${mb.toFixed(1)} MB`).join(' · ')}\n`;
    return `${line('timings', 1, this.lastWall)} · peak RSS ${peakMb.toFixed(0)} MB\n${line('cpu', 2, this.lastCpu)}\n${memory}\n${held}${this.loading}`;
  }
}
