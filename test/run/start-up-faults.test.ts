// A session started while the service answers HTTP 500s (the simulator's fault plan): every start-up read
// (the sockets' one-time password, the reconciliation's lists) is retried on the clock, and a read that
// never succeeds ends the start with an error that names the call.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReadFailedError } from '../../src/execution/read-retry.js';
import { createLogger } from '../../src/log/logger.js';
import { startSession, type Session } from '../../src/runtime/session.js';
import { injectFaults } from '../support/openapi/broker-harness.js';
import { controlledStrategy } from '../support/run/controlled-strategy.js';
import { OPEN_HTTP, removeTempFolders, tempFolder } from '../support/run/paper-harness.js';
import { US } from '../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../support/sim/harness.js';

let sim: SimHarness | undefined;
let session: Session | undefined;

afterEach(async () => {
  await session?.stop();
  session = undefined;
  await sim?.close();
  sim = undefined;
  await removeTempFolders();
});

/** Log messages as they are written; `react` sees each one first. */
function recordingLogger(react: (message: string) => void): { logger: ReturnType<typeof createLogger>; messages: string[] } {
  const messages: string[] = [];
  const logger = createLogger({
    level: 'info',
    destination: {
      write(line: string) {
        const { msg } = JSON.parse(line) as { msg: string };
        messages.push(msg);
        react(msg);
      },
    },
  });
  return { logger, messages };
}

/** Lets real I/O run, and moves the virtual clock to each timer due within `horizonMs` (retry waits), until `promise` settles. */
async function driveUntilSettled<T>(h: SimHarness, promise: Promise<T>, horizonMs = 5_000): Promise<PromiseSettledResult<T>> {
  let outcome: PromiseSettledResult<T> | undefined;
  void promise.then(
    (value) => (outcome = { status: 'fulfilled', value }),
    (reason: unknown) => (outcome = { status: 'rejected', reason }),
  );
  for (let turn = 0; turn < 5_000 && outcome === undefined; turn++) {
    await new Promise((resolve) => setImmediate(resolve));
    const next = h.clock.nextTimerAt();
    if (next !== undefined && next - h.clock.now() <= horizonMs) await h.clock.advanceToAsync(next);
  }
  if (outcome === undefined) throw new Error('the start neither finished nor failed');
  return outcome;
}

async function start(h: SimHarness, logger: ReturnType<typeof createLogger>): Promise<Session> {
  return startSession({
    venue: { mode: 'live', config: h.config },
    strategies: [controlledStrategy(US).strategy],
    journalFile: join(await tempFolder(), 'journal.sqlite'),
    clock: h.clock,
    http: OPEN_HTTP,
    logger,
    statusEveryMs: 0,
  });
}

describe('start-up under HTTP 500s', () => {
  it('retries the socket password and the reconciliation reads, and starts', async () => {
    sim = await startSimHarness();
    const h = sim;
    h.stepUntil((tick) => tick.symbol === US);
    injectFaults(h.sim, { http5xxRate: 1 });
    // Each failing read is answered properly on its retry; the reconciliation's first read fails again.
    const { logger, messages } = recordingLogger((message) => {
      if (message.endsWith(': retrying')) injectFaults(h.sim, { http5xxRate: 0 });
      if (message === 'quote connection online') injectFaults(h.sim, { http5xxRate: 1 });
    });

    const outcome = await driveUntilSettled(h, start(h, logger));

    expect(outcome.status).toBe('fulfilled');
    session = outcome.status === 'fulfilled' ? outcome.value : undefined;
    expect(messages.filter((message) => message.endsWith(': retrying'))).toEqual([
      'the one-time password for the quote and trade connections: retrying',
      "today's orders: retrying",
    ]);
    expect(messages).toContainEqual(expect.stringMatching(/^running: journal and broker reconciled/));
  });

  it('gives up after five attempts with an error naming the call that failed', async () => {
    sim = await startSimHarness();
    const h = sim;
    injectFaults(h.sim, { http5xxRate: 1 });
    const { logger } = recordingLogger(() => undefined);

    const outcome = await driveUntilSettled(h, start(h, logger));

    expect(outcome.status).toBe('rejected');
    const error = outcome.status === 'rejected' ? outcome.reason : undefined;
    expect(error).toBeInstanceOf(ReadFailedError);
    expect((error as Error).message).toBe(
      'the one-time password for the quote and trade connections (GET /v1/socket/token) failed after 5 attempts: internal error (500000)',
    );
  });
});
