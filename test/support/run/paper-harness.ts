// A paper session for tests: the real simulator on 127.0.0.1 replaying in-memory candles, stepped by hand,
// our HTTP and socket clients over it, a real SQLite journal in a temp folder, and a VirtualClock as the
// wall clock. `step` delivers ticks as the replay does in lockstep with the session (a tick that ends a bar
// waits until the bar has closed and what the strategies decided on it is at the venue), then waits (for
// real socket events, never for time) until everything they caused has settled: quotes received, the
// runtime idle, every order change the venue made pushed to us.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteRows } from '../sqlite-rows.js';
import { Subject, type Subscription } from 'rxjs';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import type { Candle } from '../../../src/domain/candle.js';
import type { RuntimeEvent } from '../../../src/execution/events.js';
import type { RiskLimits } from '../../../src/risk/config.js';
import { startSession, type Session, type SessionOptions } from '../../../src/runtime/session.js';
import type { Simulator } from '../../../src/sim/server/index.js';
import type { FaultPlanInput } from '../../../src/sim/venue/index.js';
import type { ReplayTick } from '../../../src/sim/venue/replay.js';
import type { PreparedStrategy } from '../../../src/strategy/prepare.js';
import type { PaperMarketOptions } from '../../../src/runtime/paper-market.js';
import { BASE_TIME, OPEN_LIMITS } from '../sim/harness.js';

/** Our client's own pacing opened up (the server's limits are off too): on virtual time it would wait forever. */
export const OPEN_HTTP = { rateLimit: { calls: 1_000_000, windowMs: 1, minSpacingMs: 0 }, retryDelaysMs: [100, 200] } as const;

export interface PaperHarnessOptions {
  readonly strategies: readonly PreparedStrategy[];
  readonly candles: readonly (readonly Candle[])[];
  /** YYYY-MM-DD the replay starts at; earlier bars are history (what warm-ups read). */
  readonly from?: string;
  readonly risk?: RiskLimits;
  /** Asked before each strategy intent goes on (a person's pause or kill switch). */
  readonly gate?: SessionOptions['gate'];
  readonly faults?: FaultPlanInput;
  /** The simulator's venue settings (shorts, borrow fee, instruments…). */
  readonly venue?: PaperMarketOptions['venue'];
  /** Dividends and splits the simulator applies on their ex-dates. */
  readonly actions?: PaperMarketOptions['actions'];
  readonly cash?: number;
  /** Reuse a journal (a restart); a fresh temp file otherwise. */
  readonly journalFile?: string;
  readonly stateFile?: string;
  readonly runtime?: SessionOptions['runtime'];
  /** Our client's call pacing; opened up (OPEN_HTTP) unless given. */
  readonly http?: SessionOptions['http'];
  readonly clock?: VirtualClock;
  readonly logger?: SessionOptions['logger'];
  /** Status lines are off unless asked for. */
  readonly statusEveryMs?: number;
}

export interface PaperHarness {
  readonly session: Session;
  readonly sim: Simulator;
  readonly clock: VirtualClock;
  readonly journalFile: string;
  readonly events: RuntimeEvent[];
  ofType<T extends RuntimeEvent['type']>(type: T): Extract<RuntimeEvent, { type: T }>[];
  /** Delivers `count` ticks, settling after each. */
  step(count?: number): Promise<ReplayTick | undefined>;
  /** Delivers every remaining tick. */
  stepAll(): Promise<void>;
  /** Waits until quotes, order pushes and the runtime have caught up with the simulator. */
  settle(): Promise<void>;
  /** Waits for a real event that satisfies `predicate` (a real-time guard fails a broken test). */
  until(predicate: () => boolean, what: string): Promise<void>;
  /** Lets real I/O run until the wall clock has a timer due at `due` (something started waiting). */
  untilTimerAt(due: number): Promise<void>;
  /** Rows of the journal (read with a second connection, as any reader would). */
  journal<T>(sql: string): T[];
  stop(options?: Parameters<Session['stop']>[0]): ReturnType<Session['stop']>;
}

const folders: string[] = [];

export async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'run-'));
  folders.push(folder);
  return folder;
}

export async function removeTempFolders(): Promise<void> {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
}

export async function startPaperHarness(options: PaperHarnessOptions): Promise<PaperHarness> {
  const clock = options.clock ?? new VirtualClock(BASE_TIME);
  const journalFile = options.journalFile ?? join(await tempFolder(), 'journal.sqlite');
  const session = await startSession({
    venue: {
      mode: 'paper',
      candles: options.candles,
      replay: 'manual',
      limits: OPEN_LIMITS,
      ...(options.from === undefined ? {} : { from: options.from }),
      ...(options.faults === undefined ? {} : { faults: options.faults }),
      ...(options.venue === undefined ? {} : { venue: options.venue }),
      ...(options.actions === undefined ? {} : { actions: options.actions }),
      ...(options.cash === undefined ? {} : { cash: options.cash }),
      ...(options.stateFile === undefined ? {} : { stateFile: options.stateFile }),
    },
    strategies: options.strategies,
    journalFile,
    clock,
    http: options.http ?? OPEN_HTTP,
    statusEveryMs: options.statusEveryMs ?? 0,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.risk === undefined ? {} : { risk: options.risk }),
    ...(options.gate === undefined ? {} : { gate: options.gate }),
    ...(options.runtime === undefined ? {} : { runtime: options.runtime }),
  });
  const sim = session.simulator!;
  const symbols = new Set(options.strategies.flatMap((strategy) => strategy.symbols));
  const progress = new Subject<void>();
  const counts = { ticks: 0, quotes: 0, venueUpdates: 0, pushes: 0 };
  const events: RuntimeEvent[] = [];
  const subscriptions: Subscription[] = [
    session.events.subscribe((event) => {
      events.push(event);
      progress.next();
    }),
    session.link.broker.orderUpdates.subscribe(() => {
      counts.pushes += 1;
      progress.next();
    }),
    ...[...symbols].map((symbol) =>
      session.link.marketData.quotes(symbol).subscribe(() => {
        counts.quotes += 1;
        progress.next();
      }),
    ),
  ];
  const offTick = sim.replay.onTick((tick) => {
    if (symbols.has(tick.symbol)) counts.ticks += 1;
  });
  const offUpdate = sim.venue.onOrderUpdate(() => {
    counts.venueUpdates += 1;
  });

  const until = (predicate: () => boolean, what: string): Promise<void> =>
    new Promise((resolve, reject) => {
      if (predicate()) return resolve();
      // A real-time guard so a broken test fails instead of hanging; never part of the behaviour tested.
      const guard = setTimeout(() => {
        watch.unsubscribe();
        reject(new Error(`timed out waiting for ${what}; counts ${JSON.stringify(counts)}, busy ${session.runtime.busy}`));
      }, 5_000);
      const watch = progress.subscribe(() => {
        if (!predicate()) return;
        clearTimeout(guard);
        watch.unsubscribe();
        resolve();
      });
    });
  // With reordering on, one push per connection may wait (held back by the simulator) until the next one.
  const held = (options.faults?.pushReorderRate ?? 0) > 0 ? 1 : 0;
  const caughtUp = (): boolean => counts.quotes >= counts.ticks - held && counts.pushes >= counts.venueUpdates - held;
  const settle = async (): Promise<void> => {
    for (;;) {
      await session.runtime.settled();
      await until(caughtUp, 'quotes and order pushes to catch up');
      await new Promise((resolve) => setImmediate(resolve));
      if (!session.runtime.busy && caughtUp()) return;
    }
  };

  return {
    session,
    sim,
    clock,
    journalFile,
    events,
    ofType: <T extends RuntimeEvent['type']>(type: T) =>
      events.filter((event): event is Extract<RuntimeEvent, { type: T }> => event.type === type),
    async step(count = 1) {
      let tick: ReplayTick | undefined;
      for (let index = 0; index < count; index++) {
        tick = (await sim.replay.next()) ?? tick;
        await settle();
      }
      return tick;
    },
    async stepAll() {
      while (!sim.replay.done) {
        await sim.replay.next();
        await settle();
      }
    },
    settle,
    until,
    async untilTimerAt(due) {
      for (let turn = 0; turn < 2_000; turn++) {
        if (clock.nextTimerAt() === due) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
      throw new Error(`no timer armed for ${due} (next at ${clock.nextTimerAt()})`);
    },
    journal<T>(sql: string): T[] {
      return sqliteRows<T>(journalFile, sql);
    },
    async stop(stopOptions) {
      try {
        return await session.stop(stopOptions);
      } finally {
        for (const subscription of subscriptions) subscription.unsubscribe();
        offTick();
        offUpdate();
      }
    },
  };
}
