// Tick-to-order latency through the real protocol on loopback: from a quote push arriving at our quote
// connection (the decoded packet) to the signed order request fully written to the HTTP socket (undici's
// `undici:request:bodySent`), through live market data, a strategy that orders on every tick, the risk
// layer and the executor. One tick at a time against the in-process simulator (manual replay), so each
// figure is the latency of an unloaded pipeline. Opening orders wait for fresh risk figures (account, buy
// limit, margin ratio: three GETs in parallel); closing orders need none. Client pacing and the
// simulator's call limits are off (the service's own limits would allow about one order a second).
import diagnostics from 'node:diagnostics_channel';
import { systemClock } from '../src/clock/system-clock.js';
import type { Candle } from '../src/domain/candle.js';
import type { OrderIntent } from '../src/domain/intent.js';
import { parseSymbol } from '../src/domain/symbol.js';
import { configFromEnv } from '../src/openapi/config.js';
import { paperClock } from '../src/runtime/paper-clock.js';
import { createRuntime } from '../src/runtime/runtime.js';
import { openVenueLink } from '../src/runtime/venue-link.js';
import { startSimulator } from '../src/sim/server/index.js';
import { silentLogger } from '../src/log/logger.js';
import { defineStrategy } from '../src/strategy/define.js';
import { prepareStrategy } from '../src/strategy/prepare.js';
import { filter, map } from 'rxjs';

const SYMBOL = parseSymbol('AAPL.US');
const ORDERS = 2_000;
const WARM_UP = 200;

/** One-minute bars from 09:30 New York, 390 a day on consecutive days, a seeded walk on cents. */
function minuteBars(count: number): Candle[] {
  let seed = 11;
  let price = 190;
  const bars: Candle[] = [];
  for (let index = 0; index < count; index++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    const open = price;
    price = Math.max(1, Math.round((open + (seed / 2_147_483_648 - 0.5) * 0.4) * 100) / 100);
    const time = Date.UTC(2024, 0, 2 + Math.floor(index / 390), 14, 30) + (index % 390) * 60_000;
    bars.push({
      symbol: SYMBOL,
      period: '1m',
      time,
      open,
      high: Math.max(open, price) + 0.01,
      low: Math.min(open, price) - 0.01,
      close: price,
      volume: 1_000_000,
    });
  }
  return bars;
}

/** Orders on every quote: buys 1 share ('opening'), or after one large buy, sells 1 share ('closing'). */
function everyTick(kind: 'opening' | 'closing') {
  return prepareStrategy(
    defineStrategy({
      name: `${kind}-every-tick`,
      symbols: [SYMBOL],
      run: (ctx) => {
        let bought = false;
        return ctx.quotes().pipe(
          map((): OrderIntent | undefined => {
            if (kind === 'opening') return ctx.buy(1);
            if (!bought) return ((bought = true), ctx.buy(1_000_000));
            return ctx.positions.quantity().isPositive() ? ctx.sell(1) : undefined;
          }),
          filter((intent): intent is OrderIntent => intent !== undefined),
        );
      },
    }),
  );
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

async function measure(kind: 'opening' | 'closing'): Promise<void> {
  const sim = await startSimulator({
    candles: [minuteBars(Math.ceil((ORDERS + WARM_UP + 50) / 4))],
    replay: 'manual',
    limits: { http: false, quote: false },
    cash: '1e12',
    currency: 'USD',
  });
  const link = await openVenueLink({
    config: configFromEnv(sim.env),
    clock: systemClock,
    marketClock: sim.marketClock,
    logger: silentLogger,
    http: { rateLimit: { calls: 1e9, windowMs: 1, minSpacingMs: 0 } },
  });
  let pushedAt = 0n;
  let pushed: () => void = () => undefined;
  // Subscribed before the strategy: this runs first for every push, before the pipeline sees it.
  const pushes = link.quotes.connection.pushes$.subscribe(() => {
    pushedAt = process.hrtime.bigint();
    pushed();
  });
  const latencies: number[] = [];
  let writes = 0;
  const onBodySent = ({ request }: { request: { method: string; path: string } }): void => {
    if (request.method !== 'POST' || !request.path.endsWith('/v1/trade/order')) return;
    writes += 1;
    if (writes > WARM_UP + (kind === 'closing' ? 1 : 0)) latencies.push(Number(process.hrtime.bigint() - pushedAt) / 1e6);
  };
  const channel = diagnostics.channel('undici:request:bodySent');
  channel.subscribe(onBodySent as (message: unknown) => void);
  const runtime = createRuntime({
    clock: paperClock(sim.marketClock, systemClock),
    marketData: link.marketData,
    broker: link.broker,
    strategies: [everyTick(kind)],
    reconcileIntervalMs: 0,
  });
  try {
    await runtime.start();
    while (latencies.length < ORDERS && !sim.replay.done) {
      const arrived = new Promise<void>((resolve) => (pushed = resolve));
      sim.replay.step();
      await arrived;
      if (runtime.busy) await runtime.settled();
    }
  } finally {
    channel.unsubscribe(onBodySent as (message: unknown) => void);
    pushes.unsubscribe();
    await runtime.stop();
    await link.close();
    await sim.close();
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  console.log(
    `${`tick-to-order, ${kind} orders${kind === 'opening' ? ' (with fresh risk figures)' : ' (no risk figures needed)'}`.padEnd(58)} ` +
      `median ${percentile(sorted, 0.5).toFixed(3)} ms  p99 ${percentile(sorted, 0.99).toFixed(3)} ms  mean ${mean.toFixed(3)} ms  max ${sorted.at(-1)!.toFixed(3)} ms  (${sorted.length} orders after ${WARM_UP} warm-up)`,
  );
}

export default async function main(): Promise<void> {
  await measure('opening');
  await measure('closing');
}
