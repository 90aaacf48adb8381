// `trader run` ends its process as soon as its work is done: a stop (Ctrl-C, or every strategy failing)
// prints the summary and exits at once, however much of `--for` was left.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_SECRET, TEST_TOKEN } from '../support/http/client-harness.js';
import { startFakeOpenApi, type FakeOpenApiServer } from '../support/http/fake-openapi-server.js';
import { SocketTestServer } from '../support/socket/socket-test-server.js';
import { AAPL, wavingDays } from '../support/run/candles.js';
import { removeTempFolders, tempFolder } from '../support/run/paper-harness.js';
import { spawnRun, type RunningTrader } from '../support/run/spawn-run.js';
import { US, writeCandleFolder } from '../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../support/sim/harness.js';

/** A process start on a loaded 2-core machine can take tens of seconds: the guard only catches a broken run. */
const STARTUP_MS = 60_000;

let sim: SimHarness | undefined;
let service: FakeOpenApiServer | undefined;
let socket: SocketTestServer | undefined;
const children: RunningTrader[] = [];

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.child.exitCode === null && child.child.signalCode === null) await child.signal('SIGKILL');
  await sim?.close();
  sim = undefined;
  await service?.close();
  service = undefined;
  await socket?.stop();
  socket = undefined;
  await removeTempFolders();
});

function start(args: readonly string[], env: Readonly<Record<string, string>> = {}): RunningTrader {
  const run = spawnRun(args, env);
  children.push(run);
  return run;
}

describe('trader run exits when its work is done', () => {
  it('exits right after Ctrl-C in a paper run, not when --for 10m is up', async () => {
    const data = await writeCandleFolder([wavingDays(10)]);
    const journal = join(await tempFolder(), 'journal.sqlite');
    const run = start(['strategies/sma-crossover.ts', '--symbols', AAPL, '--data', data, '--for', '10m', '--journal', journal]);
    await run.waitForLog('running: journal and broker reconciled', STARTUP_MS);

    // The test's own two-minute limit fails it when the process waits out --for.
    const exit = await run.signal('SIGINT');

    expect(exit).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toMatch(/^Run summary \(paper, /);
  }, 120_000);

  it('exits at once on Ctrl-C while the live session is still connecting, cutting the start short: status 130', async () => {
    // A venue that never hands out the one-time password its sockets want: the start waits on it.
    service = await startFakeOpenApi({
      appSecret: TEST_SECRET,
      accessToken: TEST_TOKEN,
      routes: { 'GET /v1/socket/token': () => ({ hang: true }) },
    });
    socket = await SocketTestServer.start();
    const journal = join(await tempFolder(), 'journal.sqlite');
    const run = start(['strategies/sma-crossover.ts', '--symbols', AAPL, '--live', '--yes', '--journal', journal], {
      LONGPORT_APP_KEY: 'run-start-cut',
      LONGPORT_APP_SECRET: TEST_SECRET,
      LONGPORT_ACCESS_TOKEN: TEST_TOKEN,
      LONGPORT_HTTP_URL: service.url,
      LONGPORT_QUOTE_WS_URL: socket.url,
      LONGPORT_TRADE_WS_URL: socket.url,
    });
    while (!service.requestsBy('run-start-cut').some((request) => request.path === '/v1/socket/token'))
      await new Promise((resolve) => setImmediate(resolve));

    // The test's own two-minute limit fails it when the process waits for the start (or the request's timeout).
    const exit = await run.signal('SIGINT');

    expect(exit).toEqual({ code: 130, signal: null });
    expect(run.stderr()).toContain('interrupted while starting: the start was cut short; nothing was left running');
    expect(run.stdout()).toBe('');
  }, 120_000);

  it('ends a live run whose only strategy threw with status 1 by itself, with --for 10m still to go', async () => {
    sim = await startSimHarness();
    const journal = join(await tempFolder(), 'journal.sqlite');
    const run = start(
      ['test/support/run/strategies/throw-on-quote.ts', '--live', '--yes', '--journal', journal, '--for', '10m'],
      sim.sim.env,
    );
    await run.waitForLog(`quotes of ${US} subscribed`, STARTUP_MS);
    sim.stepUntil((tick) => tick.symbol === US);

    const exit = await run.exited();

    expect(exit).toEqual({ code: 1, signal: null });
    expect(run.stderr()).toContain('stopping (every strategy failed)');
    expect(run.stdout()).toContain('throw-on-quote: failed\n');
    expect(run.stdout()).toMatch(/failed at test\/support\/run\/strategies\/throw-on-quote\.ts:\d+:\d+: boom on the first quote/);
  }, 120_000);
});
