// A simulator for tests: in-memory candles, the replay stepped by hand, a VirtualClock as its base clock, and
// our own HTTP and socket clients pointed at it (their pacing opened up, so only the server's rules apply).
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { configFromEnv, type OpenApiConfig } from '../../../src/openapi/config.js';
import { createOpenApiHttp, type OpenApiHttp, type OpenApiHttpOptions } from '../../../src/openapi/http/client.js';
import { QuoteClient } from '../../../src/openapi/socket/quote-client.js';
import { TradeClient } from '../../../src/openapi/socket/trade-client.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../../src/sim/server/index.js';
import type { ReplayTick } from '../../../src/sim/venue/index.js';
import { HK, minuteCandles, US } from './candles.js';

/** The simulator's base clock starts here (its market time is the replay's, in January 2024). */
export const BASE_TIME = Date.parse('2024-06-03T00:00:00Z');

/** Wide enough that no test meets it unless it sets its own. */
export const OPEN_LIMITS: SimulatorOptions['limits'] = { http: { calls: 100_000, windowMs: 30_000 }, quote: false };

export interface SimHarness {
  readonly sim: Simulator;
  readonly clock: VirtualClock;
  readonly config: OpenApiConfig;
  /** Our HTTP client on the simulator. */
  readonly http: OpenApiHttp;
  httpClient(options?: Partial<OpenApiHttpOptions>): OpenApiHttp;
  quoteClient(): Promise<QuoteClient>;
  /** A trade client, not yet opened (subscribe to its updates first, then `open()`). */
  tradeClient(): TradeClient;
  /** Delivers the next `count` ticks; returns the last. */
  step(count?: number): ReplayTick | undefined;
  /** Delivers ticks until one matches (throws when the data runs out first); returns it. */
  stepUntil(predicate: (tick: ReplayTick) => boolean): ReplayTick;
  close(): Promise<void>;
}

export async function startSimHarness(options: SimulatorOptions = {}): Promise<SimHarness> {
  const clock = (options.clock as VirtualClock | undefined) ?? new VirtualClock(BASE_TIME);
  const sim = await startSimulator({
    candles: [minuteCandles(HK), minuteCandles(US)],
    replay: 'manual',
    limits: OPEN_LIMITS,
    ...options,
    clock,
  });
  const config = configFromEnv(sim.env);
  const closers: (() => Promise<void>)[] = [];
  const httpClient = (overrides: Partial<OpenApiHttpOptions> = {}): OpenApiHttp => {
    const client = createOpenApiHttp(config, {
      clock,
      rateLimit: { calls: 1_000_000, windowMs: 1, minSpacingMs: 0 },
      timeoutMs: 3_600_000,
      retryDelaysMs: [],
      ...overrides,
    });
    closers.push(() => client.close());
    return client;
  };
  const http = httpClient();
  const otp = async () => http.socketToken();
  return {
    sim,
    clock,
    config,
    http,
    httpClient,
    async quoteClient() {
      const client = await QuoteClient.connect({ url: config.quoteWsUrl, clock, otp, callLimits: false });
      closers.push(() => client.close());
      return client;
    },
    tradeClient() {
      const client = new TradeClient({ url: config.tradeWsUrl, clock, otp });
      closers.push(() => client.close());
      return client;
    },
    step(count = 1) {
      let tick: ReplayTick | undefined;
      for (let index = 0; index < count; index++) tick = sim.replay.step() ?? tick;
      return tick;
    },
    stepUntil(predicate) {
      for (let tick = sim.replay.step(); tick !== undefined; tick = sim.replay.step()) if (predicate(tick)) return tick;
      throw new Error('the replay ran out of ticks before the condition held');
    },
    async close() {
      for (const close of closers.reverse()) await close();
      await sim.close();
    },
  };
}

/**
 * Points this process's LONGPORT_* environment at the harness's simulator (as `trader` commands spawned from
 * it read their credentials and endpoints), any other LONGPORT_* removed; returns what puts it back.
 */
export function useSimulatorEnv(h: SimHarness): () => void {
  const saved = { ...process.env };
  for (const key of Object.keys(process.env)) if (key.startsWith('LONGPORT_')) delete process.env[key];
  Object.assign(process.env, h.sim.env);
  return () => {
    process.env = saved;
  };
}
