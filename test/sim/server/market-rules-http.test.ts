// `trader sim`'s rules through our HTTP client and quote socket: the lot size static info (cmd 10) serves is
// the one its venue enforces, and odd lots and prices off the tick ladder come back rejected with the reason.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Price } from '../../../src/domain/price.js';
import { Quantity } from '../../../src/domain/quantity.js';
import type { OrderRequest } from '../../../src/domain/order.js';
import type { SimulatorOptions } from '../../../src/sim/server/index.js';
import { HK } from '../../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../../support/sim/harness.js';

let h: SimHarness;

async function start(options: SimulatorOptions = {}): Promise<void> {
  h = await startSimHarness(options);
  h.stepUntil((tick) => tick.symbol === HK && tick.point === 'close');
}

afterEach(async () => {
  await h.close();
});

const buy = (quantity: number, extra: Partial<OrderRequest> = {}): OrderRequest => ({
  symbol: HK,
  side: 'Buy',
  orderType: 'MO',
  quantity: Quantity.of(quantity),
  timeInForce: 'Day',
  ...extra,
});

describe('market rules over the wire', () => {
  it('serves the lot size it enforces, and rejects an order that is not whole lots', async () => {
    await start({ venue: { instruments: { '700.HK': { lotSize: 500 } } } });
    const quotes = await h.quoteClient();
    const [info] = await quotes.staticInfo([HK]);
    expect(info!.lotSize).toBe(500);

    const { orderId } = await h.http.submitOrder(buy(200));
    const detail = await h.http.orderDetail(orderId);
    expect([detail.status, detail.message]).toEqual([
      'RejectedStatus',
      'lot size: quantity 200 of 700.HK is not a whole number of board lots of 500 (odd lots trade only as order type ODD)',
    ]);
    expect((await h.http.orderDetail((await h.http.submitOrder(buy(1000))).orderId)).status).not.toBe('RejectedStatus');
  });

  it('rejects a price off the Hong Kong spread table, and fractional shares', async () => {
    await start();
    const off = Price.of(Math.round(h.sim.venue.markPrice(HK)!)).plus(Price.of('0.001'));
    const { orderId } = await h.http.submitOrder(buy(100, { orderType: 'LO', price: off }));
    const detail = await h.http.orderDetail(orderId);
    expect(detail.status).toBe('RejectedStatus');
    expect(detail.message).toMatch(
      new RegExp(`^tick size: price ${off.toString().replace('.', '\\.')} of 700\\.HK is not on the price ladder`),
    );
    const fractional = await h.http.orderDetail((await h.http.submitOrder(buy(1.5))).orderId);
    expect(fractional.message).toBe('fractional shares: 700.HK trades whole shares only, got quantity 1.5');
  });

  it('takes lot sizes and names from the securities file beside its data', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'sim-securities-'));
    try {
      const rows = ['2024-01-02,350,352,348,350,1000000', '2024-01-03,350,352,348,351,1000000'];
      await writeFile(join(folder, '700.HK.csv'), `date,open,high,low,close,volume\n${rows.join('\n')}\n`);
      await writeFile(join(folder, 'securities.csv'), 'symbol,name,lot_size\n700.HK,Tencent Holdings,400\n');
      h = await startSimHarness({ candles: undefined, data: folder });
      h.stepUntil((tick) => tick.symbol === HK && tick.point === 'close');
      const [info] = await (await h.quoteClient()).staticInfo([HK]);
      expect([info!.lotSize, info!.nameEn]).toEqual([400, 'Tencent Holdings']);
      const detail = await h.http.orderDetail((await h.http.submitOrder(buy(200))).orderId);
      expect(detail.message).toMatch(/^lot size: quantity 200 of 700\.HK is not a whole number of board lots of 400/);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
