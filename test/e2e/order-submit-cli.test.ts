// `trader order submit` against a real simulator on 127.0.0.1: the venue gives a rejected order an id too (its
// status and message say why, as the service's do), so the command waits for the venue's decision, prints the
// status and exits 1 on a rejection; --no-wait prints the id at once as before. In-process for the variants
// (the yargs setup of src/cli/main.ts), and once through the real binary for the exit status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeFor, formatError } from '../../src/cli/errors.js';
import { runInProcess } from '../support/http/cli-in-process.js';
import { runTrader } from '../support/http/run-trader.js';
import { US } from '../support/sim/candles.js';
import { startSimHarness, type SimHarness, useSimulatorEnv } from '../support/sim/harness.js';

let h: SimHarness;
let restoreEnv: () => void;

beforeAll(async () => {
  h = await startSimHarness();
  h.stepUntil((tick) => tick.symbol === US);
  restoreEnv = useSimulatorEnv(h);
});

afterAll(async () => {
  restoreEnv();
  await h.close();
});

let sent = 0;

/**
 * A buy of AAPL.US; at market by default, and far more than the account's 1,000,000 USD can pay for. Each with
 * a remark of its own: the simulator refuses a request signed alike within the same second as a replay.
 */
const buy = (quantity = '10000000', ...type: string[]) => [
  'order',
  'submit',
  '--remark',
  `test ${++sent}`,
  '--symbol',
  US,
  '--side',
  'Buy',
  '--quantity',
  quantity,
  '--type',
  ...(type.length === 0 ? ['MO'] : type),
];

describe('trader order submit', () => {
  it('prints the status and reason of an order the venue rejects after giving it an id, and fails (exit 1)', async () => {
    const run = await runInProcess(buy());

    const orderId = /^submitted order (\S+): RejectedStatus \(insufficient buying power: .+\)$/.exec(run.stdout.trim())?.[1];
    expect(orderId, run.stdout).toBeDefined();
    expect(h.sim.venue.order(orderId!).status).toBe('RejectedStatus');
    expect(formatError(run.error, false)).toMatch(
      new RegExp(`^error: order ${orderId} was rejected: insufficient buying power: the order needs [\\d.]+ USD, [\\d.]+ available$`),
    );
    expect(exitCodeFor(run.error)).toBe(1);
  });

  it('prints the status of an accepted order as JSON for scripts, and succeeds', async () => {
    const run = await runInProcess([...buy('1', 'LO', '--price', '1'), '--json']);

    expect(run.error).toBeUndefined();
    const outcome = JSON.parse(run.stdout) as { orderId: string; status: string };
    expect(outcome).toEqual({ orderId: expect.any(String), status: 'NewStatus', message: 'accepted' });
    expect(h.sim.venue.order(outcome.orderId).status).toBe('NewStatus');
  });

  it('with --no-wait prints only the order id and succeeds, whatever the venue decides', async () => {
    const run = await runInProcess([...buy(), '--no-wait', '--json']);

    expect(run.error).toBeUndefined();
    const outcome = JSON.parse(run.stdout) as { orderId: string };
    expect(outcome).toEqual({ orderId: expect.any(String) });
    expect(h.sim.venue.order(outcome.orderId).status).toBe('RejectedStatus');
  });

  it('refuses a wait that is no number of seconds before sending anything', async () => {
    const orders = h.sim.venue.orders().length;
    const run = await runInProcess([...buy('1'), '--wait', '-1']);

    expect(formatError(run.error, false)).toBe('error: --wait: must be a number of seconds ≥ 0 (got -1)');
    expect(h.sim.venue.orders()).toHaveLength(orders);
  });

  it('exits 1 from the real binary, with the reason on stderr', async () => {
    const run = await runTrader(buy(), { ...h.sim.env });

    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout, run.stderr).toMatch(/^submitted order \S+: RejectedStatus \(insufficient buying power: .+\)\n$/);
    expect(run.stderr).toMatch(/^error: order \S+ was rejected: insufficient buying power: .+\n$/);
  });
});
