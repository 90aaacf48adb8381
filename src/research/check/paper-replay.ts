// The parity check's paper side: the strategy run as `trader run` runs it (paper mode: the built-in
// simulator on 127.0.0.1 replaying the bars, our HTTP and socket clients, a journal in a temp folder),
// stepped tick by tick and settled after each, so the decisions come in a definite order.
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
  },
): Promise<Decision[]> {
  const folder = await mkdtemp(join(tmpdir(), 'trader-check-'));
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
    journalFile: join(folder, 'journal.sqlite'),
    clock: new VirtualClock(firstTime),
    http: { rateLimit: { calls: 1_000_000, windowMs: 1, minSpacingMs: 0 }, retryDelaysMs: [100, 200] },
    statusEveryMs: 0,
    logger: silentLogger,
    ...(options.risk === undefined ? {} : { risk: options.risk }),
  });
  const decisions: Decision[] = [];
  const symbols = new Set(strategy.symbols);
  const counts = { ticks: 0, quotes: 0, venueUpdates: 0, pushes: 0 };
  const sim = session.simulator!;
  const subscriptions = [
    session.events.subscribe((event) => {
      if (event.type === 'intent') decisions.push({ time: event.time, text: describeIntent(event.strategy, event.intent) });
    }),
    session.link.broker.orderUpdates.subscribe(() => {
      counts.pushes += 1;
    }),
    ...[...symbols].map((symbol) =>
      session.link.marketData.quotes(symbol).subscribe(() => {
        counts.quotes += 1;
      }),
    ),
  ];
  const offTick = sim.replay.onTick((tick) => {
    if (symbols.has(tick.symbol)) counts.ticks += 1;
  });
  const offUpdate = sim.venue.onOrderUpdate(() => {
    counts.venueUpdates += 1;
  });
  const caughtUp = (): boolean => counts.quotes >= counts.ticks && counts.pushes >= counts.venueUpdates;
  const settle = async (): Promise<void> => {
    for (let turn = 0; turn < STUCK_TURNS; turn += 1) {
      await session.runtime.settled();
      await new Promise((resolve) => setImmediate(resolve));
      if (!session.runtime.busy && caughtUp()) return;
    }
    throw new Error(`the paper replay stopped making progress (${JSON.stringify(counts)})`);
  };
  try {
    while (!sim.replay.done) {
      sim.replay.step();
      await settle();
    }
    return decisions;
  } finally {
    for (const subscription of subscriptions) subscription.unsubscribe();
    offTick();
    offUpdate();
    await session.stop();
    await rm(folder, { recursive: true, force: true });
  }
}
