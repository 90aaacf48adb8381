import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { HK } from '../../support/sim/candles.js';
import { BASE_TIME, startSimHarness, type SimHarness } from '../../support/sim/harness.js';
import { Price, Quantity } from '../../../src/domain/index.js';

let folder: string;
let file: string;
let h: SimHarness | undefined;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'sim-state-'));
  file = join(folder, 'state', 'sim.sqlite');
});

afterEach(async () => {
  await h?.close();
  h = undefined;
  await rm(folder, { recursive: true, force: true });
});

const p = (value: number | string): Price => Price.of(value);
const q = (value: number | string): Quantity => Quantity.of(value);
const localDate = (time: number): string => new Date(time + 8 * 3_600_000).toISOString().slice(0, 10);

describe('the state file', () => {
  it('keeps the dividends it booked and does not pay them again when the account resumes', async () => {
    const actions = [{ kind: 'dividend', symbol: HK, exDate: '2024-01-03', perShare: p('2') }] as const;
    h = await startSimHarness({ stateFile: file, actions });
    h.stepUntil((tick) => tick.symbol === HK);
    await h.http.submitOrder({ symbol: HK, side: 'Buy', orderType: 'MO', quantity: q(300), timeInForce: 'GTC' });
    h.stepUntil((tick) => tick.symbol === HK && localDate(tick.time) === '2024-01-03');
    const paid = h.sim.venue.cashFlows().filter((flow) => flow.name === 'Dividend 700.HK');
    expect(paid.map((flow) => flow.amount.toFixed())).toEqual(['600']);
    const cash = (await h.http.accountBalance('HKD'))[0]!.totalCash.toFixed();
    await h.close();

    h = await startSimHarness({ stateFile: file, actions });
    h.step(8);
    expect((await h.http.accountBalance('HKD'))[0]!.totalCash.toFixed()).toBe(cash);
    expect(h.sim.venue.cashFlows().filter((flow) => flow.name === 'Dividend 700.HK')).toEqual(paid);
  });

  it('keeps orders, positions, cash, keys and the replay position across a restart', async () => {
    h = await startSimHarness({ stateFile: file });
    h.stepUntil((tick) => tick.symbol === HK);
    const bought = await h.http.submitOrder({ symbol: HK, side: 'Buy', orderType: 'MO', quantity: q(300), timeInForce: 'GTC' });
    h.step();
    const restingPrice = p(h.sim.venue.markPrice(HK)!).plus(p(1));
    const resting = await h.http.submitOrder({
      symbol: HK,
      side: 'Sell',
      orderType: 'LO',
      quantity: q(100),
      price: restingPrice,
      timeInForce: 'GTC',
    });
    const before = {
      credentials: h.sim.credentials,
      marketTime: h.sim.replay.marketTime,
      cash: (await h.http.accountBalance('HKD'))[0]!.totalCash.toFixed(),
      available: (await h.http.positions([HK]))[0]!.availableQuantity.toFixed(),
      position: (await h.http.positions([HK]))[0]!.quantity.toFixed(),
      orders: h.sim.venue.orders().map((order) => [order.orderId, order.status]),
    };
    await h.close();

    h = await startSimHarness({ stateFile: file, clock: new VirtualClock(BASE_TIME + 86_400_000) });
    expect(h.sim.credentials).toEqual(before.credentials);
    expect(h.sim.replay.marketTime).toBe(before.marketTime);
    expect(h.sim.venue.orders().map((order) => [order.orderId, order.status])).toEqual(before.orders);
    expect((await h.http.accountBalance('HKD'))[0]!.totalCash.toFixed()).toBe(before.cash);
    const [position] = await h.http.positions([HK]);
    expect([position!.quantity.toFixed(), position!.availableQuantity.toFixed()]).toEqual([before.position, before.available]);
    expect(before.available).toBe('200');
    expect((await h.http.orderDetail(bought.orderId)).status).toBe('FilledStatus');

    h.stepUntil((tick) => tick.symbol === HK && tick.price >= restingPrice.toNumber());
    expect((await h.http.orderDetail(resting.orderId)).status).toBe('FilledStatus');
    expect((await h.http.positions([HK]))[0]!.quantity.toFixed()).toBe('200');
    const next = await h.http.submitOrder({ symbol: HK, side: 'Sell', orderType: 'MO', quantity: q(100), timeInForce: 'Day' });
    expect(before.orders.map(([orderId]) => orderId)).not.toContain(next.orderId);
  });

  it('saves each order change without waiting for shutdown', async () => {
    h = await startSimHarness({ stateFile: file });
    h.stepUntil((tick) => tick.symbol === HK);
    const { orderId } = await h.http.submitOrder({ symbol: HK, side: 'Buy', orderType: 'MO', quantity: q(100), timeInForce: 'Day' });
    h.step();
    await Promise.resolve();
    const db = new BetterSqlite3(file, { readonly: true });
    try {
      const row = db.prepare('SELECT json FROM orders WHERE order_id = ?').get(orderId) as { json: string };
      expect(JSON.parse(row.json)).toMatchObject({ orderId, status: 'FilledStatus', executedQuantity: '100' });
      expect((db.prepare('SELECT COUNT(*) AS count FROM executions').get() as { count: number }).count).toBe(1);
    } finally {
      db.close();
    }
  });

  it('saves the replay position at each bar close, so a crashed simulator resumes there and not at its last order', async () => {
    h = await startSimHarness({ stateFile: file });
    h.stepUntil((tick) => tick.symbol === HK);
    await h.http.submitOrder({ symbol: HK, side: 'Buy', orderType: 'MO', quantity: q(100), timeInForce: 'GTC' });
    h.step();
    await Promise.resolve();
    const closed = h.stepUntil((tick) => tick.symbol === HK && tick.point === 'close' && localDate(tick.time) === '2024-01-03');
    await Promise.resolve();
    // No close(): what a kill -9 leaves is what is in the file now.
    const db = new BetterSqlite3(file, { readonly: true });
    try {
      const row = db.prepare("SELECT value FROM meta WHERE key = 'marketTime'").get() as { value: string };
      expect(Number(row.value)).toBe(closed.time);
    } finally {
      db.close();
    }
  });

  it('refuses a state file of another format, naming the file', async () => {
    h = await startSimHarness({ stateFile: file });
    await h.close();
    h = undefined;
    const db = new BetterSqlite3(file);
    db.prepare("UPDATE meta SET value = '99' WHERE key = 'version'").run();
    db.close();
    await expect(startSimHarness({ stateFile: file })).rejects.toThrow(
      `cannot use state file ${file}: state version 99, this simulator reads version 1`,
    );
  });
});
