// `trader order replace` against a real simulator on 127.0.0.1: the command reads the order first and refuses,
// before sending a replacement, a price flag the order's type does not take (bad input, exit 2, as submit
// refuses one) and an order already final (exit 1, with its status). In process (the yargs setup of
// src/cli/main.ts); what reached the simulator is read from its own request log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeFor, formatError } from '../../src/cli/errors.js';
import { Price, Quantity } from '../../src/domain/index.js';
import { createLogger } from '../../src/log/logger.js';
import { runInProcess } from '../support/http/cli-in-process.js';
import { US } from '../support/sim/candles.js';
import { startSimHarness, type SimHarness, useSimulatorEnv } from '../support/sim/harness.js';

interface LogLine {
  readonly msg: string;
  readonly method?: string;
  readonly path?: string;
}

let h: SimHarness;
const lines: LogLine[] = [];
let restoreEnv: () => void;

beforeAll(async () => {
  const logger = createLogger({ level: 'debug', destination: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) } });
  h = await startSimHarness({ logger });
  h.stepUntil((tick) => tick.symbol === US);
  restoreEnv = useSimulatorEnv(h);
});

afterAll(async () => {
  restoreEnv();
  await h.close();
});

/** The requests the simulator answered or refused so far, as `METHOD /path`. */
function requests(): string[] {
  return lines.filter((line) => line.msg === 'served' || line.msg === 'refused').map((line) => `${line.method} ${line.path}`);
}

/** `trader order replace ARGS`, with the requests it made and the order on the venue before and after. */
async function replace(orderId: string, ...flags: string[]) {
  const before = h.sim.venue.order(orderId);
  const seen = requests().length;
  const run = await runInProcess(['order', 'replace', orderId, ...flags]);
  return { run, sent: requests().slice(seen), before, after: h.sim.venue.order(orderId) };
}

let made = 0;

/**
 * A buy of AAPL.US: at market (it fills at the next tick), or a limit far below the market (it rests). Each
 * with a remark of its own: the simulator refuses a request signed alike within the same second as a replay.
 */
async function order(type: 'MO' | 'LO', quantity = 10, price = h.sim.venue.markPrice(US)! - 20): Promise<string> {
  const request = { symbol: US, side: 'Buy', quantity: Quantity.of(quantity), timeInForce: 'Day', remark: `order ${++made}` } as const;
  const { orderId } = await h.http.submitOrder(
    type === 'MO' ? { ...request, orderType: 'MO' } : { ...request, orderType: 'LO', price: Price.of(price) },
  );
  return orderId;
}

describe('trader order replace', () => {
  it('refuses --price for a market order, naming the flag and the order type, and sends no replacement (exit 2)', async () => {
    const orderId = await order('MO');

    const { run, sent, before, after } = await replace(orderId, '--quantity', '5', '--price', '150');

    expect(formatError(run.error, false)).toBe(
      `error: --price does not apply to MO orders (only to LO, ELO, ALO, ODD, LIT, SLO): order ${orderId} is MO`,
    );
    expect(exitCodeFor(run.error)).toBe(2);
    expect(sent).toEqual(['GET /v1/trade/order']);
    expect(after).toEqual(before);
  });

  it('refuses --trigger-price for a limit order, which the venue would have taken, and leaves the order as it was', async () => {
    const orderId = await order('LO');

    const { run, sent, before, after } = await replace(orderId, '--quantity', '20', '--trigger-price', '150');

    expect(formatError(run.error, false)).toBe(
      `error: --trigger-price does not apply to LO orders (only to LIT, MIT): order ${orderId} is LO`,
    );
    expect(exitCodeFor(run.error)).toBe(2);
    expect(sent).toEqual(['GET /v1/trade/order']);
    expect(after).toEqual(before);
    expect([after.quantity.toFixed(), after.triggerPrice]).toEqual(['10', undefined]);
  });

  it('refuses an order already filled, cancelled or rejected, with its status, and sends no replacement (exit 1)', async () => {
    const filled = await order('MO');
    h.stepUntil(() => h.sim.venue.order(filled).status === 'FilledStatus');
    const cancelled = await order('LO');
    await h.http.cancelOrder(cancelled);
    const rejected = await order('LO', 1_000_000, 400);
    const finals = [
      [filled, 'FilledStatus'],
      [cancelled, 'CanceledStatus'],
      [rejected, 'RejectedStatus'],
    ] as const;

    const refusals = [];
    for (const [orderId] of finals) {
      const { run, sent, before, after } = await replace(orderId, '--quantity', '20', '--price', '150');
      expect(after).toEqual(before);
      refusals.push([formatError(run.error, false), exitCodeFor(run.error), sent]);
    }

    expect(refusals).toEqual(
      finals.map(([orderId, status]) => [
        `error: order ${orderId} is already final (${status}): it cannot be replaced`,
        1,
        ['GET /v1/trade/order'],
      ]),
    );
  });

  it('replaces an open limit order: the new quantity and price reach the venue', async () => {
    const orderId = await order('LO');
    const price = (h.sim.venue.markPrice(US)! - 25).toFixed(2);

    const { run, sent, after } = await replace(orderId, '--quantity', '20', '--price', price);

    expect(run.error).toBeUndefined();
    expect(run.stdout).toBe(`replace requested for order ${orderId}\n`);
    expect(sent).toEqual(['GET /v1/trade/order', 'PUT /v1/trade/order']);
    expect([after.quantity.toFixed(), after.price?.toFixed()]).toEqual(['20', Price.of(price).toFixed()]);
  });
});
