// `trader schedule` through the real binary in paper mode: a per-second cron job placing an order per fire
// and a start/stop window job whose limit order rests, fills notified to a real local webhook server, the
// process killed (SIGKILL) while an order is open and started again with the same config and state, status
// through `trader status` and the health endpoint, and SIGTERM ending it with exit 0 and the journal flushed.
// The simulator's state file (the paper account) then must agree with the journal, order by order.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { paperAccountFile } from '../../src/cli/run/flags.js';
import { runTrader } from '../support/http/run-trader.js';
import { removeTempFolders, tempFolder } from '../support/run/paper-harness.js';
import { spawnTrader, type RunningTrader } from '../support/run/spawn-run.js';
import { expectJournalMatchesVenue, ledgerOfStateFile, readRows } from '../support/schedule/ledger-check.js';
import { BUY_ON_QUOTE } from '../support/schedule/runner-harness.js';
import { waitFor } from '../support/schedule/wait.js';
import { WebhookServer } from '../support/schedule/webhook-server.js';
import { minuteCandles, US, writeCandleFolder } from '../support/sim/candles.js';

const children: RunningTrader[] = [];
let webhook: WebhookServer | undefined;

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.child.exitCode === null && child.child.signalCode === null) await child.signal('SIGKILL');
  await webhook?.close();
  webhook = undefined;
  await removeTempFolders();
});

interface Notified {
  readonly kind: string;
  readonly job?: string;
  readonly details?: { readonly orderId?: string };
}

/** Resolves with the next stderr line (from now on) containing every one of `parts`. */
function nextLog(trader: RunningTrader, parts: readonly string[]): Promise<string> {
  return new Promise((resolve) => {
    let pending = '';
    const onData = (chunk: Buffer): void => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop()!;
      const line = lines.find((candidate) => parts.every((part) => candidate.includes(part)));
      if (line === undefined) return;
      trader.child.stderr.off('data', onData);
      resolve(line);
    };
    trader.child.stderr.on('data', onData);
  });
}

describe('trader schedule (binary, paper mode)', () => {
  it('survives SIGKILL mid-order without sending an order twice, notifies fills, serves status, and stops on SIGTERM with exit 0', async () => {
    const folder = await tempFolder();
    const data = await writeCandleFolder([minuteCandles(US)]);
    const stateDir = join(folder, 'state');
    const journal = join(stateDir, 'paper-journal.sqlite');
    webhook = new WebhookServer();
    const hook = webhook;
    const url = await hook.start();
    const config = join(folder, 'schedule.yaml');
    await writeFile(
      config,
      `mode: paper
stateDir: ${stateDir}
paper: { data: ${data}, speed: 6 }
notify: { webhook: "${url}" }
jobs:
  - name: buyer
    strategy: ${BUY_ON_QUOTE}
    symbols: [${US}]
    cron: "* * * * * *"
    days: all
  - name: bidder
    strategy: ${BUY_ON_QUOTE}
    symbols: [${US}]
    params: { limit: 100 }
    start: "*/10 * * * * *"
    stop: "8-59/10 * * * * *"
    days: all
`,
    );
    const start = (): RunningTrader => {
      const trader = spawnTrader(['schedule', config, '--health-port', '0', '--json-logs']);
      children.push(trader);
      return trader;
    };
    const fills = (): Notified[] => (hook.received as Notified[]).filter((one) => one.kind === 'fill');

    // First run: the cron fires every second (a fire while the previous run still waits for its fill is
    // skipped: at 6x a bar's ticks are 2.5 s apart, which keeps the calls within the service's limits);
    // the process is killed while the window job's limit order rests.
    const first = start();
    await first.waitForLog('"msg":"schedule running');
    await waitFor(() => fills().length >= 2, 'two fills to be notified', 40_000).catch((error: Error) => {
      throw new Error(`${error.message}; the scheduler logged (end):\n${first.stderr().slice(-6000)}`);
    });
    await nextLog(first, ['"job":"bidder"', '"msg":"order NewStatus"']);
    const killed = await first.signal('SIGKILL');
    const openAtKill = readRows<{ client_order_id: string }>(
      journal,
      "SELECT client_order_id FROM orders WHERE strategy = 'bidder' AND status = 'NewStatus'",
    );
    const afterKill = await runTrader(['status', '--state', stateDir], {});

    // Second run, same config and state: the journal is reconciled first, then orders go on.
    const second = start();
    const healthLine = await second.waitForLog('"msg":"health endpoint listening"');
    await second.waitForLog('"msg":"schedule running');
    const notifiedBefore = fills().length;
    await waitFor(() => fills().length >= notifiedBefore + 2, 'two more fills to be notified', 40_000).catch((error: Error) => {
      throw new Error(`${error.message}; the scheduler logged (end):\n${second.stderr().slice(-6000)}`);
    });
    const status = await runTrader(['status', config, '--json'], {});
    const health = await request(`http://127.0.0.1:${(JSON.parse(healthLine) as { port: number }).port}/health`);
    const healthBody = (await health.body.json()) as { healthy: boolean; jobs: { name: string }[] };
    const stopped = await second.signal('SIGTERM');
    const afterStop = await runTrader(['status', '--state', stateDir], {});

    expect(killed.signal).toBe('SIGKILL');
    expect(openAtKill.length, 'an order was open when the process died').toBeGreaterThan(0);
    expect(afterKill.code).toBe(1);
    expect(afterKill.stdout).toMatch(/the scheduler \(pid \d+\) is not running: it ended without a graceful stop/);
    expect(second.stderr()).toMatch(/reconciling the journal with the broker before any job starts/);
    expect(status.code).toBe(0);
    const snapshot = JSON.parse(status.stdout) as {
      running: boolean;
      mode: string;
      jobs: { name: string; runs: number }[];
      portfolio: { positions: { symbol: string; quantity: string }[] };
    };
    expect(snapshot).toMatchObject({ running: true, mode: 'paper' });
    expect(snapshot.jobs.map((job) => job.name)).toEqual(['buyer', 'bidder']);
    expect(snapshot.portfolio.positions.map((line) => line.symbol)).toEqual([US]);
    expect(health.statusCode).toBe(200);
    expect(healthBody.healthy).toBe(true);
    expect(stopped).toEqual({ code: 0, signal: null });
    expect(second.stderr()).toContain('"msg":"stopped; journal flushed"');
    expect(afterStop.code).toBe(1);
    expect(afterStop.stdout).toMatch(/the scheduler stopped at/);

    // Every order once at the venue, each in the journal with its final state and its fills.
    const venue = ledgerOfStateFile(paperAccountFile(journal));
    expectJournalMatchesVenue(journal, venue);
    expect(venue.orders.length).toBeGreaterThanOrEqual(5);
    for (const { client_order_id: orphan } of openAtKill) expect(venue.orders.some((order) => order.remark === orphan)).toBe(true);
    // Each notified fill is a fill of the journal, and none was notified twice.
    const journaledOrders = new Set(readRows<{ order_id: string }>(journal, 'SELECT order_id FROM fills').map((row) => row.order_id));
    const notifiedOrders = fills().map((one) => one.details?.orderId);
    expect(notifiedOrders.every((orderId) => orderId !== undefined && journaledOrders.has(orderId))).toBe(true);
    expect(new Set(notifiedOrders).size).toBe(notifiedOrders.length);
    expect(fills().every((one) => one.job === 'buyer')).toBe(true);
  }, 120_000);

  it('reports every problem of a config at once, with its line, and exits 2', async () => {
    const folder = await tempFolder();
    const config = join(folder, 'bad.yaml');
    await writeFile(
      config,
      'mode: demo\njobs:\n  - name: a\n    strategy: missing.ts\n    cron: "0 10 * * 1"\n    lookback: 3d\n    market: HK\n  - name: b\n    task: fetch-data\n    cron: "61 * * * *"\n    symbols: [700.HK]\n',
    );

    const result = await runTrader(['schedule', config], {});

    expect(result.code).toBe(2);
    expect(result.stderr.split('\n').slice(0, 5)).toEqual([
      `error: invalid schedule config ${config} (4 problems):`,
      `  ${config}:1: mode: unknown mode "demo" (use paper or live)`,
      `  ${config}:4: jobs[0].strategy: file not found: ${join(folder, 'missing.ts')}`,
      `  ${config}:6: jobs[0].lookback: applies only to the fetch-data task`,
      `  ${config}:10: jobs[1].cron: invalid cron expression "61 * * * *" (61 is a invalid expression for minute)`,
    ]);
  });

  it("reports a missing strategy file, missing paper data and a strategy's bad params together at start, and exits 2", async () => {
    const folder = await tempFolder();
    const config = join(folder, 'bad.yaml');
    const strategy = join(process.cwd(), 'strategies/sma-crossover.ts');
    await writeFile(
      config,
      `paper: { data: [${join(folder, 'no-data')}] }\njobs:\n  - { name: a, strategy: missing.ts, market: US, cron: "0 10 * * 1" }\n` +
        `  - { name: b, strategy: ${strategy}, symbols: [SPX.US], cron: "0 10 * * 1", params: { fast: 50, slow: 10 } }\n`,
    );

    const result = await runTrader(['schedule', config], {});

    expect(result.code).toBe(2);
    expect(result.stderr.split('\n').slice(0, 4)).toEqual([
      `error: invalid schedule config ${config} (3 problems):`,
      `  ${config}:1: paper.data[0]: candle data not found: ${join(folder, 'no-data')}`,
      `  ${config}:3: jobs[0].strategy: file not found: ${join(folder, 'missing.ts')}`,
      expect.stringMatching(new RegExp(`^  ${config.replaceAll('.', '\\.')}:4: jobs\\[1\\]\\.params: .*param.*fast.*slow`)),
    ]);
  });

  it('says plainly that no scheduler has written status in a state dir', async () => {
    const folder = await tempFolder();

    const [result, json] = await Promise.all([
      runTrader(['status', '--state', folder], {}),
      runTrader(['status', '--state', folder, '--json'], {}),
    ]);

    const problem = `no scheduler status at ${join(folder, 'schedule-status.json')}: no \`trader schedule\` has run with this state dir (pass --state, or the config file)`;
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(`error: ${problem}`);
    // As JSON, the shape of a stopped scheduler's status: running false and the problem.
    expect({ code: json.code, stdout: JSON.parse(json.stdout), stderr: json.stderr }).toEqual({
      code: 1,
      stdout: { running: false, problem },
      stderr: '',
    });
  });

  it('explains both commands in --help', async () => {
    const [schedule, status] = await Promise.all([runTrader(['schedule', '--help'], {}), runTrader(['status', '--help'], {})]);

    expect(schedule.code).toBe(0);
    expect(schedule.stdout).toContain('trader schedule <config>');
    for (const flag of ['--health-port', '--state', '--json-logs']) expect(schedule.stdout).toContain(flag);
    // yargs wraps long lines between words: read the text with its line breaks as spaces.
    const oneLine = (text: string): string => text.replace(/\s+/g, ' ');
    expect(oneLine(schedule.stdout)).toContain('SIGTERM or Ctrl-C stops every run gracefully, flushes the journal and exits 0');
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('trader status [config]');
    expect(oneLine(status.stdout)).toContain('Exit status 0 while the scheduler runs');
  });
});
