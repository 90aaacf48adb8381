// Progress of long runs on stderr: a bar redrawn in place on a terminal (only when the run looks long), and a
// plain line now and then anywhere else (a log file, CI), where a redrawn bar would be noise.
import { createRequire } from 'node:module';
import type cliProgress from 'cli-progress';
import type { Clock, TimerHandle } from '../domain/clock.js';

export interface ProgressStream {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): unknown;
}

export interface ProgressOptions {
  /** Wall time (systemClock): a virtual clock would make every run look instant. */
  readonly clock: Clock;
  /** Default process.stderr. */
  readonly stream?: ProgressStream;
  /** Show the bar only when the run is projected to take longer than this (default 2000 ms). */
  readonly minimumMs?: number;
  /** Elapsed time before the first projection, so a slow start does not decide alone (default 250 ms). */
  readonly settleMs?: number;
  /** At most one redraw per this many ms (default 100). */
  readonly redrawMs?: number;
  /** Not on a terminal: one line per this many ms, the first after as long (default 30,000). */
  readonly lineEveryMs?: number;
  readonly label?: string;
  /** What is counted (default 'bars'). */
  readonly unit?: string;
}

/** Call start once, update every few thousand bars (each call costs one clock read), stop in a finally. */
export interface Progress {
  start(total: number): void;
  update(done: number): void;
  /** Clears the bar, leaving the line free for the summary. */
  stop(): void;
  readonly visible: boolean;
}

const BAR_SIZE = 30;
const MIN_BAR_SIZE = 5;
const BAR_OPTIONS = {
  format: '{label} {bar} {percentage}% | {done}/{all} {unit} | {duration_formatted} elapsed | ETA {eta_formatted}',
  barsize: BAR_SIZE,
  barCompleteString: '\u2588'.repeat(BAR_SIZE),
  barIncompleteString: '\u2591'.repeat(BAR_SIZE),
  barGlue: '',
  autopadding: true,
  autopaddingChar: ' ',
  align: 'left',
} as const satisfies cliProgress.Options & Record<string, unknown>;
/** Back to the start of the line and clear it: a line written after it stands above the bar's next drawing. */
export const CLEAR_LINE = '\r\u001b[K';

export function createProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  if (stream.isTTY !== true) return lineProgress(stream, options);
  // Loaded only for a terminal: a backtest writing to a file or pipe does not pay for it at start-up.
  const { Format } = createRequire(import.meta.url)('cli-progress') as typeof cliProgress;
  const { clock, minimumMs = 2000, settleMs = 250, redrawMs = 100, label = 'backtest', unit = 'bars' } = options;
  let total = 0;
  let startMs = 0;
  let lastDrawMs = 0;
  let active = false;
  let shown = false;

  const draw = (done: number, now: number): void => {
    const progress = total > 0 ? Math.min(1, done / total) : 0;
    const elapsedMs = now - startMs;
    const eta = progress > 0 ? Math.round((elapsedMs / progress - elapsedMs) / 1000) : 0;
    // A terminal of unknown size (a pseudo-terminal nobody sized says 0 columns) is taken as 80 wide.
    const columns = stream.columns !== undefined && stream.columns > 0 ? stream.columns : 80;
    const params = { progress, eta, startTime: startMs, stopTime: now, total, value: done, maxWidth: columns };
    const fields = { label, unit, done: countText(done), all: countText(total) };
    // The bar gives way first on a narrow terminal, so the counts and the ETA stay on the line.
    const rest = Format.Formatter({ ...BAR_OPTIONS, barsize: 0 }, params, fields).length;
    const barsize = Math.max(MIN_BAR_SIZE, Math.min(BAR_SIZE, columns - 1 - rest));
    const line = Format.Formatter({ ...BAR_OPTIONS, barsize }, params, fields);
    stream.write(`${CLEAR_LINE}${line.slice(0, Math.max(10, columns - 1))}`);
    lastDrawMs = now;
  };

  return {
    start(newTotal) {
      total = newTotal;
      startMs = clock.now();
      active = true;
      shown = false;
    },
    update(done) {
      if (!active) return;
      const now = clock.now();
      if (!shown) {
        const elapsed = now - startMs;
        if (elapsed < settleMs || done <= 0 || (elapsed * total) / done < minimumMs) return;
        shown = true;
      } else if (now - lastDrawMs < redrawMs) {
        return;
      }
      draw(done, now);
    },
    stop() {
      if (shown) stream.write(CLEAR_LINE);
      active = false;
      shown = false;
    },
    get visible() {
      return shown;
    },
  };
}

/**
 * The bar's fields on a line of their own, every lineEveryMs, without control characters: on updates, and
 * from a timer while none come (a research run waiting on its queue), so a stalled run still says where it is.
 */
function lineProgress(stream: ProgressStream, options: ProgressOptions): Progress {
  const { clock, lineEveryMs = 30_000, label = 'backtest', unit = 'bars' } = options;
  let total = 0;
  let startMs = 0;
  let done = 0;
  let nextLineMs = Number.POSITIVE_INFINITY;
  let timer: TimerHandle | undefined;
  const lineIfDue = (): void => {
    const now = clock.now();
    if (now < nextLineMs) return;
    nextLineMs = now + lineEveryMs;
    const progress = total > 0 ? Math.min(1, done / total) : 0;
    const elapsed = (now - startMs) / 1000;
    const eta = progress > 0 ? `ETA ${duration(elapsed / progress - elapsed)}` : 'ETA —';
    const percent = Math.floor(progress * 100);
    stream.write(`${label}: ${percent}% | ${countText(done)}/${countText(total)} ${unit} | ${duration(elapsed)} elapsed | ${eta}\n`);
  };
  return {
    start(newTotal) {
      total = newTotal;
      done = 0;
      startMs = clock.now();
      nextLineMs = startMs + lineEveryMs;
      timer?.cancel();
      timer = clock.setInterval(lineIfDue, lineEveryMs);
    },
    update(newDone) {
      done = newDone;
      lineIfDue();
    },
    stop() {
      nextLineMs = Number.POSITIVE_INFINITY;
      timer?.cancel();
      timer = undefined;
    },
    visible: false,
  };
}

/** 1,234,567, formatted when shown: most runs show no count, and a formatter made up front cost every run. */
function countText(count: number): string {
  return count.toLocaleString('en-US');
}

/** 45s, 4m05s, 2h07m. */
function duration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole}s`;
  const two = (value: number): string => String(value).padStart(2, '0');
  if (whole < 3600) return `${Math.floor(whole / 60)}m${two(whole % 60)}s`;
  return `${Math.floor(whole / 3600)}h${two(Math.floor(whole / 60) % 60)}m`;
}
