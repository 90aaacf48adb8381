// Throughput of the simulator's protocol server on loopback: orders per second it accepts over signed HTTP
// (our client, several in flight) and matches against the replay, and quote pushes per second it delivers
// to one subscriber over the WebSocket (counted raw, and decoded by our QuoteClient).
import WebSocket from 'ws';
import { systemClock } from '../src/clock/system-clock.js';
import type { Candle } from '../src/domain/candle.js';
import { Quantity } from '../src/domain/index.js';
import { parseSymbol } from '../src/domain/symbol.js';
import { configFromEnv } from '../src/openapi/config.js';
import { createOpenApiHttp } from '../src/openapi/http/client.js';
import { encodePacket } from '../src/openapi/socket/codec.js';
import { CONTROL_COMMANDS, QUOTE_COMMANDS } from '../src/openapi/socket/commands.js';
import { messages } from '../src/openapi/socket/messages.js';
import { QuoteClient } from '../src/openapi/socket/quote-client.js';
import { startSimulator, type Simulator } from '../src/sim/server/index.js';

const SYMBOL = parseSymbol('700.HK');
const ORDERS = 4_000;
const IN_FLIGHT = 8;
const PUSH_TICKS = 100_000;
const BATCH = 500;

/** Minute bars from 09:30 HKT, 330 a day over consecutive days, a seeded walk on the 0.2 grid. */
function minuteBars(count: number): Candle[] {
  let seed = 7;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const bars: Candle[] = [];
  let price = 300;
  for (let index = 0; index < count; index++) {
    const day = Math.floor(index / 330);
    const minute = index % 330;
    const time = Date.UTC(2024, 0, 2 + day, 1, 30) + (minute < 150 ? minute : minute + 60) * 60_000;
    const open = price;
    const close = Math.max(10, Math.round((open + (random() - 0.5) * 2) * 5) / 5);
    const high = Math.round((Math.max(open, close) + 0.2) * 5) / 5;
    const low = Math.round((Math.min(open, close) - 0.2) * 5) / 5;
    bars.push({ symbol: SYMBOL, period: '1m', time, open, high, low, close, volume: 1_000_000 });
    price = close;
  }
  return bars;
}

function start(bars: number): Promise<Simulator> {
  return startSimulator({
    candles: [minuteBars(bars)],
    replay: 'manual',
    limits: { http: false, quote: false },
    cash: '100000000000',
    currency: 'HKD',
  });
}

function report(label: string, count: number, unit: string, seconds: number): void {
  console.log(
    `${label.padEnd(62)} ${Math.round(count / seconds)
      .toLocaleString('en-US')
      .padStart(10)} ${unit}/s  (${count.toLocaleString('en-US')} in ${seconds.toFixed(2)} s)`,
  );
}

async function ordersOverHttp(): Promise<void> {
  const sim = await start(ORDERS);
  const http = createOpenApiHttp(configFromEnv(sim.env), {
    clock: systemClock,
    rateLimit: { calls: 1e9, windowMs: 1, minSpacingMs: 0 },
    connections: IN_FLIGHT,
  });
  try {
    sim.replay.step();
    for (let warm = 0; warm < 200; warm++) await http.accountBalance();
    let next = 0;
    const started = performance.now();
    const submitter = async (): Promise<void> => {
      while (next < ORDERS) {
        const index = next++;
        // Distinct remarks: identical bodies in the same second would be refused as replays (403202).
        await http.submitOrder({
          symbol: SYMBOL,
          side: 'Buy',
          orderType: 'MO',
          quantity: Quantity.of(100),
          timeInForce: 'GTC',
          remark: `bench-${index}`,
        });
        // A tick every 20 orders matches what rests, inside the timed loop.
        if (index % 20 === 19) sim.replay.step();
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, submitter));
    const accepted = (performance.now() - started) / 1000;
    while (sim.venue.orders({ statuses: ['NewStatus'] }).length > 0) sim.replay.step();
    const matched = (performance.now() - started) / 1000;
    const filled = sim.venue.orders({ statuses: ['FilledStatus'] }).length;
    if (filled !== ORDERS) throw new Error(`only ${filled} of ${ORDERS} orders filled`);
    report(`orders accepted over HTTP (${IN_FLIGHT} in flight, signed, market orders)`, ORDERS, 'orders', accepted);
    report('orders accepted and matched (until the last fill)', filled, 'orders', matched);
  } finally {
    await http.close();
    await sim.close();
  }
}

/** A bare subscriber: authenticates, subscribes quotes and counts push frames without decoding them. */
async function rawSubscriber(sim: Simulator): Promise<{ count: () => number; close: () => void }> {
  const http = createOpenApiHttp(configFromEnv(sim.env), { clock: systemClock });
  const { otp } = await http.socketToken();
  await http.close();
  const socket = new WebSocket(`${sim.quoteWsUrl}?version=1&codec=1&platform=9`);
  await new Promise((resolve) => socket.once('open', resolve));
  let pushes = 0;
  let answered: (() => void) | undefined;
  socket.on('message', (data: Buffer) => {
    if ((data[0]! & 0x0f) === 3) pushes++;
    else answered?.();
  });
  const request = (cmd: number, body: Uint8Array, id: number): Promise<void> =>
    new Promise((resolve) => {
      answered = resolve;
      socket.send(encodePacket({ type: 'request', cmd, requestId: id, timeoutMs: 10_000, body }));
    });
  await request(CONTROL_COMMANDS.auth, messages.authRequest.encode({ token: otp, metadata: {} }), 1);
  await request(QUOTE_COMMANDS.subscribe, messages.subscribeRequest.encode({ symbol: [SYMBOL], subType: [1], isFirstPush: false }), 2);
  return { count: () => pushes, close: () => socket.terminate() };
}

async function deliver(sim: Simulator, received: () => number): Promise<number> {
  const started = performance.now();
  for (let sent = 0; sent < PUSH_TICKS; sent += BATCH) {
    for (let index = 0; index < BATCH; index++) sim.replay.step();
    // Let the socket drain before the next batch (the subscriber must keep up, not the send buffer).
    while (received() < sent + BATCH) await new Promise((resolve) => setImmediate(resolve));
  }
  return (performance.now() - started) / 1000;
}

async function quotePushes(): Promise<void> {
  const bars = Math.ceil(PUSH_TICKS / 4) + 10;
  const raw = await start(bars);
  const subscriber = await rawSubscriber(raw);
  try {
    report('quote pushes delivered to one raw subscriber (frames counted)', PUSH_TICKS, 'pushes', await deliver(raw, subscriber.count));
  } finally {
    subscriber.close();
    await raw.close();
  }

  const decoded = await start(bars);
  const http = createOpenApiHttp(configFromEnv(decoded.env), { clock: systemClock });
  const client = await QuoteClient.connect({ url: decoded.quoteWsUrl, clock: systemClock, otp: () => http.socketToken() });
  let quotes = 0;
  const subscription = client.quotes([SYMBOL]).subscribe(() => quotes++);
  try {
    while (decoded.connections().every((connection) => connection.symbols.length === 0))
      await new Promise((resolve) => setImmediate(resolve));
    report('quote pushes delivered to our QuoteClient (decoded to Quotes)', PUSH_TICKS, 'pushes', await deliver(decoded, () => quotes));
  } finally {
    subscription.unsubscribe();
    await client.close();
    await http.close();
    await decoded.close();
  }
}

export default async function simServerBench(): Promise<void> {
  await ordersOverHttp();
  await quotePushes();
}
