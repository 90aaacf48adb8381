import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { WebhookNotifier } from '../../src/schedule/notifier.js';
import { waitUntil } from '../support/schedule/wait.js';
import { WebhookServer } from '../support/schedule/webhook-server.js';

const T0 = Date.parse('2024-03-04T02:00:00Z');
let server: WebhookServer;
let notifier: WebhookNotifier | undefined;

afterEach(async () => {
  notifier?.close();
  await server.close();
});

async function setUp(options: { attempts?: number; queueLimit?: number } = {}) {
  server = new WebhookServer();
  const url = await server.start();
  const clock = new VirtualClock(T0);
  notifier = new WebhookNotifier({ clock, url, initialDelayMs: 1000, maxDelayMs: 60_000, timeoutMs: 10_000, ...options });
  return { clock, notifier, url };
}

/** Waits until the worker has armed its retry sleep, and returns how long it is. */
async function retryDelay(clock: VirtualClock, below: number): Promise<number> {
  await waitUntil(() => (clock.nextTimerAt() ?? Infinity) - clock.now() < below, 'a retry is armed');
  return clock.nextTimerAt()! - clock.now();
}

describe('WebhookNotifier against a real local HTTP server', () => {
  it('POSTs each notification as JSON', async () => {
    const { notifier } = await setUp();

    notifier.notify({ kind: 'halt', job: 'hk-trend', message: 'job hk-trend halted', details: { reason: 'crashes' } });
    await server.requests(1);
    await notifier.drain();

    expect(server.received).toEqual([
      {
        id: 1,
        at: '2024-03-04T02:00:00.000Z',
        kind: 'halt',
        job: 'hk-trend',
        message: 'job hk-trend halted',
        details: { reason: 'crashes' },
      },
    ]);
    expect(notifier.stats()).toEqual({ queued: 0, sent: 1, failed: 0, dropped: 0 });
  });

  it('retries failed deliveries with backoff on the clock until one succeeds, keeping order', async () => {
    const { clock, notifier } = await setUp();
    server.script.push(500, 503);

    notifier.notify({ kind: 'crash', message: 'first' });
    notifier.notify({ kind: 'fill', message: 'second' });
    await server.requests(1);
    const firstDelay = await retryDelay(clock, 5000);
    await clock.advanceByAsync(firstDelay);
    await server.requests(2);
    const secondDelay = await retryDelay(clock, 5000);
    await clock.advanceByAsync(secondDelay);
    await server.requests(4);
    await notifier.drain();

    expect([firstDelay, secondDelay]).toEqual([1000, 2000]);
    expect(server.received.map((body) => (body as { message: string }).message)).toEqual(['first', 'second']);
    expect(notifier.stats()).toMatchObject({ sent: 2, failed: 0 });
  });

  it('gives a notification up after its attempts and goes on with the next', async () => {
    const { clock, notifier } = await setUp({ attempts: 2 });
    server.script.push(500, 500);

    notifier.notify({ kind: 'crash', message: 'lost' });
    notifier.notify({ kind: 'crash', message: 'kept' });
    await server.requests(1);
    await clock.advanceByAsync(await retryDelay(clock, 5000));
    await server.requests(3);
    await notifier.drain();

    expect(server.received.map((body) => (body as { message: string }).message)).toEqual(['kept']);
    expect(notifier.stats()).toEqual({ queued: 0, sent: 1, failed: 1, dropped: 0 });
  });

  it('never blocks the caller on a hung webhook: bounded queue, oldest waiting dropped and counted', async () => {
    const { notifier } = await setUp({ queueLimit: 2 });
    server.hang = true;

    for (let index = 1; index <= 5; index++) notifier.notify({ kind: 'fill', message: `fill ${index}` });
    const afterCalls = notifier.stats();
    await server.requests(1);

    expect(afterCalls).toEqual({ queued: 3, sent: 0, failed: 0, dropped: 2 });
    expect(server.attempts).toBe(1);
  });

  it('times a hung request out on the clock and retries it', async () => {
    const { clock, notifier } = await setUp();
    server.hang = true;
    notifier.notify({ kind: 'outage', message: 'link down' });
    await server.requests(1);

    server.hang = false;
    await clock.advanceByAsync(10_000);
    await clock.advanceByAsync(await retryDelay(clock, 5000));
    await server.requests(2);
    await notifier.drain();

    expect(server.received).toHaveLength(1);
    expect(notifier.stats()).toMatchObject({ sent: 1, failed: 0 });
  });

  it('keeps accepting notifications while the webhook refuses connections', async () => {
    const { clock, notifier } = await setUp({ attempts: 1 });
    await server.close();

    notifier.notify({ kind: 'halt', message: 'one' });
    notifier.notify({ kind: 'halt', message: 'two' });
    await waitUntil(() => notifier.stats().failed === 2, 'both deliveries have failed');

    expect(notifier.stats()).toEqual({ queued: 0, sent: 0, failed: 2, dropped: 0 });
    expect(clock.now()).toBe(T0);
  });
});
