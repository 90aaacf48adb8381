// The market of a paper run: the simulated broker started in process on loopback (HTTP and WebSockets, the
// real protocol), replaying candle files. The replay is held until the strategies have subscribed, so the
// first bars reach them, and then keeps in step with the run (session.ts joins its lockstep); `replay:
// 'manual'` leaves it to the caller to step (tests: replay.next() passes the lockstep, replay.step() does not).
import type { Clock } from '../domain/clock.js';
import type { SecuritySymbol } from '../domain/symbol.js';
import type { Logger } from '../log/logger.js';
import { configFromEnv, type OpenApiConfig } from '../openapi/config.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../sim/server/index.js';

export interface PaperMarketOptions {
  /** Candle CSV files or folders of SYMBOL.csv files (default backtest-data). */
  readonly data?: SimulatorOptions['data'];
  /** Candles in memory instead of files (tests, benchmarks). */
  readonly candles?: SimulatorOptions['candles'];
  /** YYYY-MM-DD the replay starts at; earlier bars are history only. */
  readonly from?: string;
  /** Bad CSV rows: fail (default) or skip. */
  readonly onBadRow?: SimulatorOptions['onBadRow'];
  /** What the data's prices are: 'none' (the default: dividends and splits beside the data are applied) or 'forward'. */
  readonly adjust?: SimulatorOptions['adjust'];
  /** Dividends and splits of in-memory `candles`. */
  readonly actions?: SimulatorOptions['actions'];
  /** Market time per wall time. */
  readonly speed?: number;
  readonly cash?: number | string;
  readonly seed?: number;
  readonly faults?: SimulatorOptions['faults'];
  readonly venue?: SimulatorOptions['venue'];
  readonly limits?: SimulatorOptions['limits'];
  /** Keeps the simulated account (orders, positions, cash, replay position) across runs. */
  readonly stateFile?: string;
  /** 'paced' (default): the replay plays at `speed` once play() is called; 'manual': only replay.step() moves it. */
  readonly replay?: 'paced' | 'manual';
  /**
   * A simulator already running, shared by several sessions (the scheduler's paper venue): it is used as it
   * is (the options above are its owner's business), and neither played nor closed by a session.
   */
  readonly simulator?: Simulator;
}

export interface PaperMarket {
  readonly simulator: Simulator;
  /** The LONGPORT_* settings of the simulator. */
  readonly config: OpenApiConfig;
  /** The replay's market time. */
  readonly marketClock: Clock;
  /** Starts the paced replay (no-op for a manual one). */
  play(): void;
  close(): Promise<void>;
}

/** `signal` stops the start while the data is read (a Ctrl-C): it then rejects with the signal's reason. */
export async function startPaperMarket(
  options: PaperMarketOptions,
  symbols: readonly SecuritySymbol[],
  clock: Clock,
  logger: Logger,
  signal?: AbortSignal,
): Promise<PaperMarket> {
  if (options.simulator !== undefined) return sharedMarket(options.simulator);
  const simulator = await startSimulator({
    ...(options.candles === undefined ? { data: options.data ?? 'backtest-data' } : { candles: options.candles }),
    symbols,
    ...(options.from === undefined ? {} : { from: options.from }),
    ...(options.onBadRow === undefined ? {} : { onBadRow: options.onBadRow }),
    ...(options.adjust === undefined ? {} : { adjust: options.adjust }),
    ...(options.actions === undefined ? {} : { actions: options.actions }),
    ...(options.speed === undefined ? {} : { speed: options.speed }),
    ...(options.cash === undefined ? {} : { cash: options.cash }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.faults === undefined ? {} : { faults: options.faults }),
    ...(options.venue === undefined ? {} : { venue: options.venue }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.stateFile === undefined ? {} : { stateFile: options.stateFile }),
    replay: 'manual',
    clock,
    logger,
    ...(signal === undefined ? {} : { signal }),
  });
  let playing = false;
  return {
    simulator,
    config: configFromEnv(simulator.env),
    marketClock: simulator.marketClock,
    play() {
      if (playing || options.replay === 'manual') return;
      playing = true;
      simulator.marketClock.setPaced(true);
      simulator.replay.start();
    },
    close: () => simulator.close(),
  };
}

function sharedMarket(simulator: Simulator): PaperMarket {
  return {
    simulator,
    config: configFromEnv(simulator.env),
    marketClock: simulator.marketClock,
    play: () => undefined,
    close: async () => undefined,
  };
}
