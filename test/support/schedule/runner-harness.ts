// The SessionJobRunner over the real simulator on 127.0.0.1 (one paper account shared by every run, the
// replay stepped by hand), a real SQLite journal in a temp folder and a VirtualClock as the wall clock.
// Waits are for real socket events (bounded by event-loop turns), never for time.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { silentLogger, type Logger } from '../../../src/log/logger.js';
import type { RiskLimits } from '../../../src/risk/config.js';
import { SessionJobRunner } from '../../../src/runtime/job-runner.js';
import type { Session, SessionOptions } from '../../../src/runtime/session.js';
import { parseScheduleConfig, type ScheduleConfig } from '../../../src/schedule/config.js';
import type { JobRun, RunContext, RunReason } from '../../../src/schedule/job-runner.js';
import type { ScheduleJob } from '../../../src/schedule/job.js';
import type { IntentGate } from '../../../src/runtime/intent-gate.js';
import { startSimulator, type Simulator } from '../../../src/sim/server/index.js';
import { OPEN_HTTP } from '../run/paper-harness.js';
import { minuteCandles, US } from '../sim/candles.js';
import { BASE_TIME, OPEN_LIMITS } from '../sim/harness.js';
import { waitFor } from './wait.js';

export const BUY_ON_QUOTE = fileURLToPath(new URL('./strategies/buy-on-quote.ts', import.meta.url));

/** A one-job config in YAML: the job trades AAPL.US from 9:30 to 15:55 on weekdays; `extra` adds lines to the job. */
export function usWindowConfig(name: string, extra: readonly string[] = []): string {
  const lines = [`  - name: ${name}`, '    strategy: $STRATEGY', `    symbols: [${US}]`, ...extra.map((line) => `    ${line}`)];
  return `\njobs:\n${lines.join('\n')}\n    start: "30 9 * * 1-5"\n    stop: "55 15 * * 1-5"\n`;
}

export interface RunnerHarness {
  readonly clock: VirtualClock;
  readonly sim: Simulator;
  readonly runner: SessionJobRunner;
  readonly journalFile: string;
  /** Sessions that are running now, by job name ('reconciliation' for the runner's own). */
  readonly live: Map<string, Session>;
  /** A config written in YAML (the strategy path is filled in), its state in the harness's temp folder. */
  config(yaml: string): ScheduleConfig;
  /** The job of a one-job config written in YAML. */
  job(yaml: string): ScheduleJob;
  /** A run of the job; `abort` aborts its signal (the supervisor's answer to a run that does not stop in time). */
  start(job: ScheduleJob, reason?: RunReason, closesAt?: number, abort?: AbortController): JobRun;
  /** Resolves once the job's session runs (journal reconciled, quotes subscribed). */
  running(name: string): Promise<Session>;
  /** Delivers the next tick of the replay. */
  tick(): void;
  close(): Promise<void>;
}

export async function startRunnerHarness(
  options: {
    readonly risk?: RiskLimits;
    readonly gate?: IntentGate;
    readonly logger?: Logger;
    /** The wall clock (a VirtualClock at BASE_TIME by default). */
    readonly clock?: VirtualClock;
    /** The sessions' HTTP settings (pacing opened up by default). */
    readonly http?: SessionOptions['http'];
  } = {},
): Promise<RunnerHarness> {
  const folder = await mkdtemp(join(tmpdir(), 'schedule-runner-'));
  const clock = options.clock ?? new VirtualClock(BASE_TIME);
  const sim = await startSimulator({ candles: [minuteCandles(US)], replay: 'manual', limits: OPEN_LIMITS, clock });
  const journalFile = join(folder, 'journal.sqlite');
  const live = new Map<string, Session>();
  const runner = new SessionJobRunner({
    venue: () => ({ mode: 'paper', simulator: sim }),
    journalFile,
    logger: options.logger ?? silentLogger,
    clock,
    session: { http: options.http ?? OPEN_HTTP, statusEveryMs: 0, runtime: { reconcileIntervalMs: 0 } },
    ...(options.risk === undefined ? {} : { risk: options.risk }),
    ...(options.gate === undefined ? {} : { gate: options.gate }),
    onSession: (job, session) => {
      const name = job?.name ?? 'reconciliation';
      live.set(name, session);
      return () => live.delete(name);
    },
  });
  const config = (yaml: string): ScheduleConfig =>
    parseScheduleConfig(yaml.replaceAll('$STRATEGY', BUY_ON_QUOTE), join(folder, 'schedule.yaml'));
  const aborts: AbortController[] = [];
  return {
    clock,
    sim,
    runner,
    journalFile,
    live,
    config,
    job: (yaml) => config(yaml).jobs[0]!,
    start(job, reason = 'window', closesAt, abort = new AbortController()) {
      aborts.push(abort);
      const context: RunContext = { reason, attempt: 0, closesAt, signal: abort.signal };
      return runner.start(job, context);
    },
    async running(name) {
      await waitFor(() => live.has(name), `the session of ${name} to run`);
      return live.get(name)!;
    },
    tick: () => void sim.replay.step(),
    async close() {
      for (const abort of aborts) abort.abort(new Error('test over'));
      await sim.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
