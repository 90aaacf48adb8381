// The hub and /metrics fed by hand-made runtime events: each fill once however many sessions report it,
// slippage against the price decided on, tick-to-order on the wall clock, denials by code, reconnects,
// equity and the day's PnL, and account reads kept apart on virtual time.
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { Money, Price, Quantity, positionAt, type Fill, type OrderIntent } from '../../src/domain/index.js';
import type { RuntimeEvent } from '../../src/execution/events.js';
import { silentLogger } from '../../src/log/logger.js';
import type { RuntimeProbe } from '../../src/ops/control.js';
import { OpsHub, slippage } from '../../src/ops/hub.js';
import { createMetrics, type OpsMetrics } from '../../src/ops/metrics.js';
import { AAPL, StubControl, balance } from '../support/ops/stub-control.js';

const T0 = Date.parse('2024-06-03T14:00:00Z');
let hub: OpsHub | undefined;
let metrics: OpsMetrics | undefined;
afterEach(() => {
  metrics?.close();
  hub?.close();
});

function probe(price: string, tickAt: number | undefined): RuntimeProbe & { price: string; tickAt: number | undefined } {
  return {
    price,
    tickAt,
    lastPrice() {
      return Price.of(this.price);
    },
    get lastTickAt() {
      return this.tickAt;
    },
  };
}

const buy: OrderIntent = { kind: 'order', symbol: AAPL, side: 'Buy', quantity: Quantity.of(10) };

function fill(orderId: string, cumulative: string, price: string): Fill {
  return {
    fillId: `${orderId}:${cumulative}`,
    orderId,
    symbol: AAPL,
    side: 'Buy',
    quantity: Quantity.of(10),
    price: Price.of(price),
    time: T0,
    commission: Money.zero('USD'),
  };
}

function setUp(refreshGapMs = 0) {
  const clock = new VirtualClock(T0);
  const control = new StubControl();
  hub = new OpsHub({ control, clock, logger: silentLogger, refreshEveryMs: 0, refreshGapMs });
  hub.start();
  metrics = createMetrics(hub, control);
  const send = (event: RuntimeEvent, source: RuntimeProbe) => control.activity.next({ kind: 'runtime', event, source });
  const scrape = async () => (await metrics!.render()).body;
  return { clock, control, hub, send, scrape };
}

describe('OpsHub and metrics', () => {
  it('counts a fill once when two sessions report it, with slippage against the price decided on and tick-to-order', async () => {
    const { clock, hub, send, scrape } = setUp();
    const placing = probe('100', T0 - 4);
    const other = probe('100', undefined);
    send({ type: 'intent', time: T0, strategy: 'dip', intentId: 1, intent: buy }, placing);
    placing.price = '100.5';
    clock.advanceBy(12);
    send(
      {
        type: 'order-submitted',
        time: T0,
        strategy: 'dip',
        clientOrderId: 'lt-x-1',
        orderId: undefined,
        request: { symbol: AAPL, side: 'Buy', orderType: 'MO', quantity: Quantity.of(10), timeInForce: 'Day', remark: 'lt-x-1' },
      },
      placing,
    );
    const position = positionAt(AAPL, Quantity.of(10), Price.of('100.2'));
    for (const source of [placing, other])
      send({ type: 'fill', time: T0, strategy: 'dip', clientOrderId: 'lt-x-1', fill: fill('7001', '10', '100.2'), position }, source);

    expect(hub.state().fills).toEqual([
      expect.objectContaining({ fillId: '7001:10', strategy: 'dip', tag: 'lt-x-1', price: '100.2', quantity: '10', slippageBps: 20 }),
    ]);
    const text = await scrape();
    expect(text).toContain('trader_orders_total{strategy="dip",side="Buy"} 1');
    expect(text).toContain('trader_fills_total{strategy="dip",side="Buy"} 1');
    expect(text).toContain('trader_tick_to_order_seconds_bucket{le="0.025"} 1');
    expect(text).toContain('trader_tick_to_order_seconds_sum 0.016');
    expect(text).toContain('trader_fill_slippage_bps_bucket{le="10",side="Buy"} 0');
    expect(text).toContain('trader_fill_slippage_bps_bucket{le="20",side="Buy"} 1');
    expect(text.trimEnd().endsWith('# EOF')).toBe(true);
  });

  it("shows a fill under its intent's tag (a stop-loss exit), else under the client order id", () => {
    const { send, hub } = setUp();
    const source = probe('100', undefined);
    const position = positionAt(AAPL, Quantity.of(10), Price.of('100.2'));
    send(
      { type: 'fill', time: T0, strategy: 'dip', clientOrderId: 'lt-x-2', tag: 'stop-loss', fill: fill('7002', '10', '99'), position },
      source,
    );
    send({ type: 'fill', time: T0, strategy: 'dip', clientOrderId: 'lt-x-3', fill: fill('7003', '10', '99'), position }, source);

    // Newest first, as the dashboard lists them.
    expect(hub.state().fills.map((view) => view.tag)).toEqual(['lt-x-3', 'stop-loss']);
  });

  it('keeps denials with code and figures, counts them and rejections by code once each', async () => {
    const { send, hub, scrape } = setUp();
    const source = probe('100', undefined);
    send(
      {
        type: 'denial',
        time: T0,
        strategy: 'dip',
        intentId: 3,
        intent: buy,
        denial: { code: 'EXCEEDS_BUY_POWER', message: 'needs 1000 USD, has 10', figures: { required: '1000', available: '10' } },
      },
      source,
    );
    const rejected: RuntimeEvent = {
      type: 'order-updated',
      time: T0,
      strategy: 'dip',
      clientOrderId: 'lt-x-2',
      orderId: '7002',
      from: 'NotReported',
      status: 'RejectedStatus',
      source: 'push',
      message: 'price out of range',
    };
    send(rejected, source);
    send(rejected, probe('100', undefined));

    expect(hub.state().denials).toEqual([
      {
        time: '2024-06-03T14:00:00.000Z',
        strategy: 'dip',
        symbol: 'AAPL.US',
        code: 'EXCEEDS_BUY_POWER',
        message: 'needs 1000 USD, has 10',
        figures: { required: '1000', available: '10' },
      },
    ]);
    const text = await scrape();
    expect(text).toContain('trader_denials_total{strategy="dip",code="EXCEEDS_BUY_POWER"} 1');
    expect(text).toContain('trader_order_rejections_total{strategy="dip"} 1');
  });

  it('follows connections: reconnects counted once per outage, up or down', async () => {
    const { control, hub, scrape } = setUp();
    const send = (status: 'online' | 'reconnecting') =>
      control.activity.next({
        kind: 'connection',
        name: 'trade',
        state: status === 'online' ? { status, reconnected: true } : { status, attempt: 1, reason: 'socket closed', retryInMs: 1000 },
      });
    send('reconnecting');
    expect(await scrape()).toContain('trader_connection_up{connection="trade"} 0');
    send('reconnecting');
    send('online');
    send('reconnecting');

    const text = await scrape();
    expect(text).toContain('trader_connection_reconnects_total{connection="trade"} 2');
    expect(text).toContain('trader_connection_up{connection="trade"} 0');
    expect(hub.state().connections).toEqual([
      { name: 'trade', status: 'reconnecting', detail: 'attempt 1: socket closed', since: '2024-06-03T14:00:00.000Z' },
    ]);
    control.activity.next({ kind: 'connection', name: 'trade', state: undefined });
    expect(hub.state().connections).toEqual([]);
  });

  it('reads equity and the PnL of the local day, which starts again on the next day', async () => {
    const { clock, control, hub, scrape } = setUp();
    await hub.settled();
    control.figures = { ...control.figures, balances: [balance('HKD', '5000'), balance('USD', '101250.5')] };
    hub.refresh();
    await hub.settled();

    expect(hub.state().account.dayPnl).toEqual({ currency: 'USD', change: '1250.50' });
    expect(hub.state().equity).toEqual({
      currency: 'USD',
      points: [{ time: T0 / 1000, value: 101250.5 }],
    });
    const text = await scrape();
    expect(text).toContain('trader_equity{currency="USD"} 101250.5');
    expect(text).toContain('trader_day_pnl{currency="USD"} 1250.5');

    clock.advanceBy(24 * 3_600_000);
    hub.refresh();
    await hub.settled();
    expect(hub.state().account.dayPnl).toEqual({ currency: 'USD', change: '0.00' });
    expect(hub.state().equity.points).toHaveLength(2);
  });

  it('reads the account at most once per gap on the clock, however many changes ask for it', async () => {
    const { clock, control, hub } = setUp(2000);
    await hub.settled();
    expect(control.reads).toBe(1);
    for (let change = 0; change < 5; change++) hub.refresh();
    expect(clock.nextTimerAt()).toBe(T0 + 2000);
    await clock.advanceByAsync(1999);
    expect(control.reads).toBe(1);
    await clock.advanceByAsync(1);
    await hub.settled();
    expect(control.reads).toBe(2);
  });

  it('shows job states, the kill switch and notification queues as metrics', async () => {
    const { control, scrape } = setUp();
    control.kill = { tripped: true, reason: 'daily loss', at: '2024-06-03T14:00:00.000Z' };
    control.notifierStats.set('telegram', { queued: 2, sent: 5, failed: 1, dropped: 0 });
    const text = await scrape();
    expect(text).toContain('trader_job_state{job="stub-strategy",state="running"} 1');
    expect(text).toContain('trader_kill_switch_tripped 1');
    expect(text).toContain('trader_notifier_queue{channel="telegram"} 2');
    expect(text).toContain('trader_notifications_total{channel="telegram",outcome="sent"} 5');
    control.notifierStats.set('telegram', { queued: 0, sent: 7, failed: 1, dropped: 0 });
    expect(await scrape()).toContain('trader_notifications_total{channel="telegram",outcome="sent"} 7');
  });

  it('measures slippage as basis points worse than the decision: dearer buys, cheaper sells', () => {
    expect(slippage('Buy', Price.of('100.5'), Price.of('100'))).toBe(50);
    expect(slippage('Sell', Price.of('100.5'), Price.of('100'))).toBe(-50);
    expect(slippage('Sell', Price.of('99'), Price.of('100'))).toBe(100);
  });
});
