// The simulator's contract, written once against SimulatorDriver and run through every client: the official
// SDK and our own. Each scenario gets a fresh simulator, its replay stepped by hand on a virtual clock.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/domain/decimal.js';
import { BARS_PER_DAY, HK, minuteCandles, US } from '../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../support/sim/harness.js';
import type { SimulatorDriver } from './driver.js';

export function simulatorContract(client: string, connect: (harness: SimHarness) => Promise<SimulatorDriver>): void {
  describe(`the simulator through ${client}`, () => {
    let h: SimHarness;
    let driver: SimulatorDriver;

    beforeEach(async () => {
      h = await startSimHarness({
        from: '2024-01-03',
        venue: { stockNames: { '700.HK': 'TENCENT' }, marginRatios: { default: { im: '0.5', mm: '0.35', fm: '0.25' } } },
      });
      h.stepUntil((tick) => tick.symbol === HK && tick.point === 'close');
      driver = await connect(h);
    });

    afterEach(async () => {
      await driver.close();
      await h.close();
    });

    const mark = (): Decimal => new Decimal(h.sim.venue.markPrice(HK)!);

    it('reports the starting balance of each currency', async () => {
      expect(await driver.balance('HKD')).toEqual({ totalCash: '1000000', netAssets: '1000000', buyPower: '2000000' });
      expect((await driver.balance('USD')).totalCash).toBe('1000000');
      expect(await driver.positions()).toEqual([]);
    });

    it('buys at market; the fill reaches the order callbacks, the positions and the cash', async () => {
      await driver.watchOrders();
      const orderId = await driver.submit({ symbol: HK, side: 'Buy', type: 'MO', quantity: '200', remark: 'contract-1' });
      const fillTick = h.step()!;
      const fill = await driver.orderPushes.next((push) => push.orderId === orderId && push.status === 'FilledStatus');
      const price = new Decimal(fillTick.price);
      expect(fill).toEqual({ orderId, status: 'FilledStatus', executedQuantity: '200', lastShare: '200', lastPrice: price.toFixed() });
      expect(await driver.positions()).toEqual([{ symbol: HK, quantity: '200', availableQuantity: '200', costPrice: price.toFixed() }]);
      expect((await driver.balance('HKD')).totalCash).toBe(new Decimal(1_000_000).minus(price.times(200)).toFixed());
      const detail = await driver.orderDetail(orderId);
      expect([detail.status, detail.executedPrice, detail.remark, detail.history]).toEqual([
        'FilledStatus',
        price.toFixed(),
        'contract-1',
        ['NewStatus', 'FilledStatus'],
      ]);
    });

    it("replaces and cancels a resting limit order, as today's orders and the order detail show", async () => {
      const price = mark().minus(5).toFixed();
      const orderId = await driver.submit({ symbol: HK, side: 'Buy', type: 'LO', quantity: '100', price });
      expect((await driver.todayOrders()).map((row) => [row.orderId, row.status, row.price])).toEqual([[orderId, 'NewStatus', price]]);
      const lower = mark().minus(6).toFixed();
      await driver.replace(orderId, '300', lower);
      const replaced = await driver.orderDetail(orderId);
      expect([replaced.status, replaced.quantity, replaced.price]).toEqual(['ReplacedStatus', '300', lower]);
      await driver.cancel(orderId);
      const cancelled = await driver.orderDetail(orderId);
      expect([cancelled.status, cancelled.history]).toEqual(['CanceledStatus', ['NewStatus', 'ReplacedStatus', 'CanceledStatus']]);
    });

    it('estimates the buy limit from the cash and margin, and answers the margin ratios', async () => {
      expect(await driver.buyLimit(HK, '250')).toEqual({ cash: '4000', margin: '8000' });
      expect(await driver.marginRatio(HK)).toEqual({ im: '0.5', mm: '0.35', fm: '0.25' });
    });

    it('lists the simulated symbols in the watchlist', async () => {
      expect(await driver.watchlist()).toEqual([{ name: 'all', symbols: [HK, US] }]);
    });

    it('pushes the quotes of subscribed symbols as the replay moves', async () => {
      await driver.watchQuotes([HK]);
      const ticks = [h.step()!, h.step()!];
      const second = await driver.quotePushes.next(
        (push) => push.lastDone === new Decimal(ticks[1]!.price).toFixed() && push.volume === ticks[1]!.dayVolume,
      );
      expect(second.symbol).toBe(HK);
      expect(driver.quotePushes.all.every((push) => push.symbol === HK)).toBe(true);
    });

    it('answers static info and quotes', async () => {
      expect(await driver.staticInfo([HK, US])).toEqual([
        { symbol: HK, name: 'TENCENT', lotSize: 100, currency: 'HKD' },
        { symbol: US, name: 'AAPL', lotSize: 1, currency: 'USD' },
      ]);
      const dayOneClose = new Decimal(minuteCandles(HK)[BARS_PER_DAY - 1]!.close).toFixed();
      const [quote] = await driver.quote([HK]);
      expect(quote).toEqual({ symbol: HK, lastDone: mark().toFixed(), prevClose: dayOneClose, volume: 10_000 });
    });

    it('serves history candlesticks up to the replay, and trading days', async () => {
      const source = minuteCandles(HK);
      const dayOne = await driver.historyByDate(HK, '2024-01-02', '2024-01-02');
      expect(dayOne.map((bar) => bar.time)).toEqual(source.slice(0, BARS_PER_DAY).map((bar) => bar.time));
      expect(dayOne[0]).toEqual({
        time: source[0]!.time,
        open: new Decimal(source[0]!.open).toFixed(),
        close: new Decimal(source[0]!.close).toFixed(),
        volume: 10_000,
      });
      const latest = await driver.latestHistory(HK, 2);
      expect(latest.map((bar) => bar.time)).toEqual(source.slice(BARS_PER_DAY - 1, BARS_PER_DAY + 1).map((bar) => bar.time));
      expect(await driver.tradingDays('HK', '2024-01-01', '2024-01-05')).toEqual([
        '2024-01-01',
        '2024-01-02',
        '2024-01-03',
        '2024-01-04',
        '2024-01-05',
      ]);
    });
  });
}
