import { afterEach, describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/domain/quote.js';
import { type ServiceError, TransportError } from '../../../src/openapi/http/errors.js';
import { CONTROL_COMMANDS } from '../../../src/openapi/socket/commands.js';
import { messages } from '../../../src/openapi/socket/messages.js';
import type { QuoteClient } from '../../../src/openapi/socket/quote-client.js';
import type { FaultPlanInput } from '../../../src/sim/venue/index.js';
import { HK } from '../../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../../support/sim/harness.js';
import { rawCall } from '../../support/sim/raw-request.js';
import { openRawSocket } from '../../support/sim/raw-socket.js';
import { serverHolds } from '../../support/sim/server-holds.js';
import { Quantity } from '../../../src/domain/index.js';

const harnesses: SimHarness[] = [];

async function start(faults: FaultPlanInput, seed = 1): Promise<SimHarness> {
  const harness = await startSimHarness({ faults, seed });
  harnesses.push(harness);
  return harness;
}

afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

/** Lets real I/O run until the clock has a timer due at `due` (the server arming a delay). */
async function untilTimerAt(h: SimHarness, due: number): Promise<void> {
  for (let turn = 0; turn < 1000; turn++) {
    if (h.clock.nextTimerAt() === due) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`no timer armed for ${due}`);
}

/** Subscribes to HK quotes, replays `ticks` HK ticks and returns the pushes that arrived. */
async function quotePushes(h: SimHarness, ticks: number): Promise<Quote[]> {
  const client = await h.quoteClient();
  const received: Quote[] = [];
  const subscription = client.quotes([HK]).subscribe((quote) => received.push(quote));
  await serverHolds(client, HK);
  for (let count = 0; count < ticks; count++) h.stepUntil((tick) => tick.symbol === HK);
  // Responses are never dropped or delayed: once this answer is in, every push sent before it is too.
  await client.quote([HK]);
  subscription.unsubscribe();
  return received;
}

const sequences = (quotes: readonly Quote[]): number[] => quotes.map((quote) => quote.sequence);

describe('latency', () => {
  it('holds every HTTP answer back by the added latency on the clock', async () => {
    const h = await start({ latencyMs: 250 });
    let answered = false;
    const call = h.http.accountBalance().then(() => (answered = true));
    await untilTimerAt(h, h.clock.now() + 250);
    await h.clock.advanceByAsync(249);
    expect(answered).toBe(false);
    await h.clock.advanceByAsync(1);
    await call;
    expect(answered).toBe(true);
  });

  it('holds socket replies back too', async () => {
    const h = await start({ latencyMs: 100 });
    const raw = await openRawSocket(h.sim.quoteWsUrl);
    let answered = false;
    const reply = raw
      .request(CONTROL_COMMANDS.heartbeat, messages.heartbeat.encode({ timestamp: 1, heartbeatId: 1 }))
      .then(() => (answered = true));
    await untilTimerAt(h, h.clock.now() + 100);
    expect(answered).toBe(false);
    await h.clock.advanceByAsync(100);
    await reply;
    raw.socket.terminate();
  });
});

describe('pushes', () => {
  it('drops a seeded share of pushes, the same ones for the same seed', async () => {
    const all = await quotePushes(await start({}), 40);
    expect(sequences(all)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    const dropped = sequences(await quotePushes(await start({ pushDropRate: 0.5 }, 3), 40));
    const again = sequences(await quotePushes(await start({ pushDropRate: 0.5 }, 3), 40));
    const otherSeed = sequences(await quotePushes(await start({ pushDropRate: 0.5 }, 4), 40));
    expect(dropped).toEqual(again);
    expect(dropped).not.toEqual(otherSeed);
    expect(dropped.length).toBeGreaterThan(10);
    expect(dropped.length).toBeLessThan(30);
  });

  it('delays every push by the configured time on the clock', async () => {
    const h = await start({ pushDelayMs: 500 });
    const client: QuoteClient = await h.quoteClient();
    const received: Quote[] = [];
    client.quotes([HK]).subscribe((quote) => received.push(quote));
    await serverHolds(client, HK);
    h.step();
    await client.quote([HK]);
    expect(received).toEqual([]);
    await h.clock.advanceByAsync(500);
    await client.quote([HK]);
    expect(sequences(received)).toEqual([1]);
  });

  it('delivers a seeded share of pushes after the next one', async () => {
    const reordered = sequences(await quotePushes(await start({ pushReorderRate: 0.3 }, 5), 30));
    const inversions = reordered.filter((sequence, index) => index > 0 && sequence < reordered[index - 1]!);
    expect(inversions.length).toBeGreaterThan(0);
    expect([...reordered].sort((a, b) => a - b)).toEqual(Array.from({ length: reordered.length }, (_, index) => index + 1));
    expect(reordered).toEqual(sequences(await quotePushes(await start({ pushReorderRate: 0.3 }, 5), 30)));
  });
});

describe('socket drops', () => {
  it('cuts a connection after the configured number of pushes, without Close or close frame', async () => {
    const h = await start({ socketDropAfterPushes: 3 });
    const raw = await openRawSocket(h.sim.quoteWsUrl);
    await raw.request(CONTROL_COMMANDS.auth, messages.authRequest.encode({ token: (await h.http.socketToken()).otp, metadata: {} }));
    await raw.request(6, messages.subscribeRequest.encode({ symbol: [HK], subType: [1], isFirstPush: false }));
    for (let count = 0; count < 5; count++) h.stepUntil((tick) => tick.symbol === HK);
    const closed = await raw.closed;
    expect(raw.pushes.map((push) => push.cmd)).toEqual([101, 101, 101]);
    expect(closed.code).toBe(1006);
  });

  it('cuts a connection after a seeded share of pushes', async () => {
    const pushesBeforeDrop = async (seed: number): Promise<number> => {
      const h = await start({ socketDropRate: 0.2 }, seed);
      const raw = await openRawSocket(h.sim.quoteWsUrl);
      await raw.request(CONTROL_COMMANDS.auth, messages.authRequest.encode({ token: (await h.http.socketToken()).otp, metadata: {} }));
      await raw.request(6, messages.subscribeRequest.encode({ symbol: [HK], subType: [1], isFirstPush: false }));
      for (let count = 0; count < 60 && raw.socket.readyState === raw.socket.OPEN; count++) h.stepUntil((tick) => tick.symbol === HK);
      await raw.closed;
      return raw.pushes.length;
    };
    const first = await pushesBeforeDrop(11);
    expect(first).toBeGreaterThan(0);
    expect(await pushesBeforeDrop(11)).toBe(first);
  });
});

describe('HTTP failures', () => {
  it('answers a seeded share of calls with 500 (500000), the same calls for the same seed', async () => {
    const pattern = async (seed: number): Promise<boolean[]> => {
      const h = await start({ http5xxRate: 0.3 }, seed);
      const failed: boolean[] = [];
      for (let call = 0; call < 20; call++) {
        const error = await h.http.accountBalance().then(
          () => undefined,
          (caught: unknown) => caught,
        );
        if (error !== undefined) expect([(error as ServiceError).serviceCode, (error as ServiceError).httpStatus]).toEqual([500000, 500]);
        failed.push(error !== undefined);
      }
      return failed;
    };
    const first = await pattern(9);
    expect(first.filter(Boolean).length).toBeGreaterThan(0);
    expect(first.filter(Boolean).length).toBeLessThan(20);
    expect(await pattern(9)).toEqual(first);
  });

  it('answers injected 429s as plain text, which our client retries for reads', async () => {
    const h = await start({ http429Rate: 1 });
    const raw = await rawCall(h.sim, { path: '/v1/asset/account' });
    expect([raw.status, raw.contentType, raw.text]).toEqual([429, 'text/plain; charset=utf-8', 'Too Many Requests (injected fault)']);
    const error = await h.http.accountBalance().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).httpStatus).toBe(429);

    const flaky = await start({ http429Rate: 0.5 }, 2);
    const retrying = flaky.httpClient({ retryDelaysMs: [100, 100, 100, 100, 100, 100, 100, 100] });
    const answer = retrying.accountBalance();
    for (let turn = 0; turn < 20; turn++) await flaky.clock.advanceByAsync(100);
    expect((await answer).length).toBe(2);
  });
});

describe('order faults', () => {
  it('rejects submitted orders at the configured rate', async () => {
    const h = await start({ orderRejectRate: 1 });
    h.stepUntil((tick) => tick.symbol === HK);
    const { orderId } = await h.http.submitOrder({
      symbol: HK,
      side: 'Buy',
      orderType: 'MO',
      quantity: Quantity.of(100),
      timeInForce: 'Day',
    });
    const detail = await h.http.orderDetail(orderId);
    expect([detail.status, detail.message]).toEqual(['RejectedStatus', 'rejected by the venue (injected fault)']);
  });

  it('cuts fills short at the configured rate, leaving the rest working', async () => {
    const h = await start({ partialFillRate: 1 });
    h.stepUntil((tick) => tick.symbol === HK);
    const { orderId } = await h.http.submitOrder({
      symbol: HK,
      side: 'Buy',
      orderType: 'MO',
      quantity: Quantity.of(1000),
      timeInForce: 'Day',
    });
    h.step();
    const detail = await h.http.orderDetail(orderId);
    expect(detail.status).toBe('PartialFilledStatus');
    expect(detail.executedQuantity.gt(0) && detail.executedQuantity.lt(1000)).toBe(true);
  });
});
