// The parity check's paper side: the strategy run as `trader run` runs it (paper mode: the built-in
// simulator on 127.0.0.1 replaying the bars, our HTTP and socket clients, a journal in a temp folder),
// stepped tick by tick as fast as the replay's lockstep with the run allows (at each bar's end it waits until
// the bar has closed and the run has settled), so the decisions come in a definite order.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BacktestData } from '../../backtest/data.js';
import type { BacktestVenueSettings } from '../../backtest/engine.js';
import type { CorporateAction } from '../../domain/corporate-action.js';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { silentLogger } from '../../log/logger.js';
import type { RiskLimits } from '../../risk/config.js';
import { startSession } from '../../runtime/session.js';
import type { PreparedStrategy } from '../../strategy/prepare.js';
import { type Decision, describeIntent } from './decisions.js';

/** Turns of the event loop without progress before the replay is declared stuck. */
const STUCK_TURNS = 200_000;

export async function paperDecisions(
  strategy: PreparedStrategy,
  data: BacktestData,
  options: {
    readonly cash: string;
    readonly risk?: RiskLimits;
    /** The backtest's venue settings (costs, shorts, instruments) and actions: the same market on both sides. */
    readonly venue?: BacktestVenueSettings;
    readonly actions?: readonly CorporateAction[];
    /** Cuts the replay short (rejecting with the abort's reason); the session and its temp folder go all the same. */
    readonly signal?: AbortSignal;
  },
): Promise<Decision[]> {
  const folder = await mkdtemp(join(tmpdir(), 'trader-check-'));
  try {
    return await replayDecisions(strategy, data, options, join(folder, 'journal.sqlite'));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function replayDecisions(
  strategy: PreparedStrategy,
  data: BacktestData,
  options: Parameters<typeof paperDecisions>[2],
  journalFile: string,
): Promise<Decision[]> {
  const firstTime = Math.min(...data.series.map((series) => series.candles[0]?.time ?? Infinity));
  const session = await startSession({
    venue: {
      mode: 'paper',
      candles: data.series.map((series) => series.candles),
      replay: 'manual',
      cash: options.cash,
      ...(options.venue === undefined ? {} : { venue: options.venue }),
      ...(options.actions === undefined ? {} : { actions: options.actions }),
      limits: { http: { calls: 1_000_000, windowMs: 30_000 }, quote: false },
    },
    strategies: [strategy],
    journalFile,
    clock: new VirtualClock(firstTime),
    http: { rateLimit: { calls: 1_000_000, windowMs: 1, minSpacingMs: 0 }, retryDelaysMs: [100, 200] },
    statusEveryMs: 0,
    logger: silentLogger,
    ...(options.risk === undefined ? {} : { risk: options.risk }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const decisions: Decision[] = [];
  const sim = session.simulator!;
  const subscription = session.events.subscribe((event) => {
    if (event.type === 'intent') decisions.push({ time: event.time, text: describeIntent(event.strategy, event.intent) });
  });
  try {
    while (!sim.replay.done) {
      options.signal?.throwIfAborted();
      await unlessStuck(sim.replay.next());
    }
    return decisions;
  } finally {
    subscription.unsubscribe();
    await session.stop();
  }
}

/** `work`'s outcome, or an error when it has not settled after STUCK_TURNS turns of the event loop. */
async function unlessStuck<T>(work: Promise<T>): Promise<T> {
  let settled = false;
  const outcome = work.finally(() => {
    settled = true;
  });
  for (let turn = 0; turn < STUCK_TURNS && !settled; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  if (!settled) {
    outcome.catch(() => undefined);
    throw new Error('the paper replay stopped making progress');
  }
  return outcome;
}
