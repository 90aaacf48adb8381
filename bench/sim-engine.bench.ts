// Throughput of the simulated venue's matching engine: bars per second through onBar (no orders, a
// steady flow of market orders, and a resting order checked on every bar) and orders per second submitted
// and matched, with each fee model (fees are the costliest part of an order).
import { VirtualClock } from '../src/clock/virtual-clock.js';
import type { Candle } from '../src/domain/candle.js';
import { Price, Quantity } from '../src/domain/index.js';
import type { OrderRequest } from '../src/domain/order.js';
import { parseSymbol } from '../src/domain/symbol.js';
import { Venue } from '../src/sim/venue/index.js';

const BARS = 1_000_000;
const SYMBOL = parseSymbol('700.HK');

function randomWalk(count: number): Candle[] {
  let seed = 42;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const candles: Candle[] = [];
  let price = 300;
  let time = Date.UTC(2020, 0, 2, 1, 30);
  for (let index = 0; index < count; index++) {
    const open = price;
    const close = Math.max(1, Math.round((open + (random() - 0.5) * 2) * 100) / 100);
    const high = Math.round((Math.max(open, close) + random()) * 100) / 100;
    const low = Math.round((Math.min(open, close) - random()) * 100) / 100;
    candles.push({ symbol: SYMBOL, period: '1m', time, open, high, low, close, volume: 10_000 + Math.floor(random() * 50_000) });
    price = close;
    time += 60_000;
  }
  return candles;
}

type Fees = 'none' | 'hk-stock' | { commissionRate: number };
const FEES: readonly [string, Fees][] = [
  ['no fees', 'none'],
  ['commission 0.1%', { commissionRate: 0.001 }],
  ['HK schedule', 'hk-stock'],
];

function venue(fees: Fees = 'none'): Venue {
  return new Venue({ clock: new VirtualClock(Date.UTC(2020, 0, 1)), settings: { cash: { HKD: '1000000000000' }, fees } });
}

const market = (side: 'Buy' | 'Sell'): OrderRequest => ({
  symbol: SYMBOL,
  side,
  orderType: 'MO',
  quantity: Quantity.of(100),
  timeInForce: 'GTC',
});

function timed(label: string, bars: number, run: () => void): void {
  const start = performance.now();
  run();
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${label.padEnd(58)} ${Math.round(bars / seconds)
      .toLocaleString('en-US')
      .padStart(13)} bars/s  (${seconds.toFixed(3)} s)`,
  );
}

export default async function simEngineBench(): Promise<void> {
  const candles = randomWalk(BARS);
  // Warm up the JIT on a separate venue.
  const warm = venue();
  for (let index = 0; index < 200_000; index++) warm.onBar(candles[index]!);

  const idle = venue();
  timed(`onBar, no orders (${BARS.toLocaleString('en-US')} bars)`, BARS, () => {
    for (let index = 0; index < BARS; index++) idle.onBar(candles[index]!);
  });

  for (const [label, fees] of FEES) {
    const flowing = venue(fees);
    let orders = 0;
    timed(`onBar + a market order every 10 bars, ${label}`, BARS, () => {
      for (let index = 0; index < BARS; index++) {
        flowing.onBar(candles[index]!);
        if (index % 10 === 0) {
          flowing.submit(market(orders % 2 === 0 ? 'Buy' : 'Sell'));
          orders++;
        }
      }
    });
    console.log(`  ${orders.toLocaleString('en-US')} orders, ${flowing.executions().length.toLocaleString('en-US')} fills`);
  }

  const resting = venue();
  resting.onBar(candles[0]!);
  resting.submit({ symbol: SYMBOL, side: 'Buy', orderType: 'LO', price: Price.of(1), quantity: Quantity.of(100), timeInForce: 'GTC' });
  timed('onBar with one resting limit order checked every bar', BARS, () => {
    for (let index = 1; index < BARS; index++) resting.onBar(candles[index]!);
  });

  for (const [label, fees] of FEES) {
    const matched = venue(fees);
    const count = 100_000;
    const start = performance.now();
    for (let index = 0; index < count; index++) {
      matched.onBar(candles[index]!);
      matched.submit(market(index % 2 === 0 ? 'Buy' : 'Sell'));
    }
    matched.onBar(candles[count]!);
    const seconds = (performance.now() - start) / 1000;
    const fills = matched.executions().length;
    console.log(
      `${`orders submitted and matched, ${label}`.padEnd(58)} ${Math.round(count / seconds)
        .toLocaleString('en-US')
        .padStart(13)} orders/s (${fills.toLocaleString('en-US')} fills)`,
    );
  }
}
