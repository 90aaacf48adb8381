// The OpenAPI broker over a real simulator on 127.0.0.1 (manual replay, VirtualClock): our HTTP client and
// trade connection, and a way to wait until every order change the venue made has been pushed to us.
import { Subject } from 'rxjs';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import type { Candle } from '../../../src/domain/candle.js';
import { parseSymbol, type SecuritySymbol } from '../../../src/domain/symbol.js';
import { OpenApiBroker } from '../../../src/openapi/broker/index.js';
import { configFromEnv, type OpenApiConfig } from '../../../src/openapi/config.js';
import { createOpenApiHttp, type OpenApiHttpOptions } from '../../../src/openapi/http/client.js';
import { TradeClient } from '../../../src/openapi/socket/trade-client.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../../src/sim/server/index.js';
import type { FaultPlan } from '../../../src/sim/venue/index.js';
import { BASE_TIME, OPEN_LIMITS } from '../sim/harness.js';
import { minuteBar } from '../backtest/scripted.js';

export const SYMBOL = parseSymbol('AAPL.US');
export const OTHER = parseSymbol('MSFT.US');

/**
 * Switches faults on (or off) in a running simulator: its venue's fault plan is read on every request and
 * push, so tests can connect cleanly first and fail exactly the calls they are about.
 */
export function injectFaults(sim: Simulator, faults: Partial<FaultPlan>): void {
  Object.assign(sim.venue.faults.plan, faults);
}

export interface BrokerHarness {
  readonly sim: Simulator;
  readonly clock: VirtualClock;
  readonly config: OpenApiConfig;
  readonly broker: OpenApiBroker;
  /** Another broker on the same simulator, with its own HTTP settings or credentials. */
  brokerWith(http: Partial<OpenApiHttpOptions>, config?: Partial<OpenApiConfig>): OpenApiBroker;
  /** The venue trades `symbol` at `price`. */
  trade(price: number, symbol?: SecuritySymbol): void;
  /** Resolves once every order change the venue made has reached `broker.orderUpdates`. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** Bars at a flat `price` for both symbols; the first tick of each is delivered, so both are priced. */
function flatBars(symbol: SecuritySymbol, price: number): Candle[] {
  return [0, 1, 2].map((minute) => minuteBar(symbol, `2024-01-02 10:0${minute}`, price, price, price, price));
}

export async function startBrokerHarness(
  options: { readonly cash?: number; readonly price?: number; readonly sim?: SimulatorOptions } = {},
): Promise<BrokerHarness> {
  const clock = new VirtualClock(BASE_TIME);
  const price = options.price ?? 100;
  const sim = await startSimulator({
    candles: [flatBars(SYMBOL, price), flatBars(OTHER, price)],
    replay: 'manual',
    limits: OPEN_LIMITS,
    cash: options.cash ?? 100_000,
    currency: 'USD',
    ...options.sim,
    clock,
  });
  sim.replay.step();
  sim.replay.step();
  const config = configFromEnv(sim.env);
  const closers: (() => Promise<void>)[] = [];
  const brokerWith = (http: Partial<OpenApiHttpOptions>, overrides: Partial<OpenApiConfig> = {}): OpenApiBroker => {
    const client = createOpenApiHttp(
      { ...config, ...overrides },
      { clock, rateLimit: { calls: 1_000_000, windowMs: 1, minSpacingMs: 0 }, retryDelaysMs: [], ...http },
    );
    const trade = new TradeClient({ url: config.tradeWsUrl, clock, otp: () => client.socketToken() });
    closers.push(
      () => trade.close(),
      () => client.close(),
    );
    return new OpenApiBroker(client, trade);
  };
  const http = createOpenApiHttp(config, { clock, rateLimit: { calls: 1_000_000, windowMs: 1, minSpacingMs: 0 }, retryDelaysMs: [] });
  const tradeClient = new TradeClient({ url: config.tradeWsUrl, clock, otp: () => http.socketToken() });
  const broker = new OpenApiBroker(http, tradeClient);
  closers.push(
    () => tradeClient.close(),
    () => http.close(),
  );
  let venueUpdates = 0;
  let pushes = 0;
  const progress = new Subject<void>();
  sim.venue.onOrderUpdate(() => void (venueUpdates += 1));
  broker.orderUpdates.subscribe(() => {
    pushes += 1;
    progress.next();
  });
  await tradeClient.open();
  return {
    sim,
    clock,
    config,
    broker,
    brokerWith,
    trade(next, symbol = SYMBOL) {
      sim.venue.onTick(symbol, next, 1_000_000, sim.marketClock.now());
    },
    settle: () =>
      new Promise((resolve, reject) => {
        if (pushes >= venueUpdates) return resolve();
        // A real-time guard so a broken test fails instead of hanging; never part of the behaviour tested.
        const guard = setTimeout(() => reject(new Error(`only ${pushes} of ${venueUpdates} order changes were pushed`)), 5_000);
        const watch = progress.subscribe(() => {
          if (pushes < venueUpdates) return;
          clearTimeout(guard);
          watch.unsubscribe();
          resolve();
        });
      }),
    async close() {
      for (const close of closers.reverse()) await close();
      await sim.close();
    },
  };
}
