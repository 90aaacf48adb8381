import { filter, firstValueFrom, map, take, toArray, type Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TRADE_COMMANDS } from '../../../src/openapi/socket/commands.js';
import { messages } from '../../../src/openapi/socket/messages.js';
import type { TradeClient } from '../../../src/openapi/socket/trade-client.js';
import { HK } from '../../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../../support/sim/harness.js';
import { Quantity } from '../../../src/domain/index.js';

/** Every field PROTOCOL.md §5 lists for order_changed_lb (the official SDK drops a push lacking any). */
const PUSH_FIELDS = [
  'side',
  'stock_name',
  'submitted_quantity',
  'symbol',
  'order_type',
  'submitted_price',
  'executed_quantity',
  'executed_price',
  'order_id',
  'currency',
  'status',
  'submitted_at',
  'updated_at',
  'trigger_price',
  'msg',
  'tag',
  'trigger_status',
  'trigger_at',
  'trailing_amount',
  'trailing_percent',
  'limit_offset',
  'account_no',
  'last_share',
  'last_price',
  'remark',
];

let h: SimHarness;
let trade: TradeClient;

beforeEach(async () => {
  h = await startSimHarness({ venue: { accountNo: 'SIM042' } });
  h.stepUntil((tick) => tick.symbol === HK);
  trade = h.tradeClient();
});

afterEach(async () => {
  await h.close();
});

/** The JSON of every order_changed_lb notification, straight off the wire. */
function rawPushes(client: TradeClient): Observable<{ event: string; data: Record<string, string> }> {
  return client.connection.pushes$.pipe(
    filter((packet) => packet.cmd === TRADE_COMMANDS.notification),
    map(
      (packet) =>
        JSON.parse(new TextDecoder().decode(messages.notification.decode(packet.body).data)) as {
          event: string;
          data: Record<string, string>;
        },
    ),
  );
}

const buy = { symbol: HK, side: 'Buy', orderType: 'MO', quantity: Quantity.of(200), timeInForce: 'Day', remark: 'client-7' } as const;

describe('order notifications', () => {
  it('pushes order_changed_lb with every documented field for each change, the fill with last_share and last_price', async () => {
    const wire = firstValueFrom(rawPushes(trade).pipe(take(2), toArray()));
    const updates = firstValueFrom(trade.orderUpdates().pipe(take(2), toArray()));
    await trade.open();
    const { orderId } = await h.http.submitOrder(buy);
    const tick = h.step()!;
    const [accepted, filled] = await wire;
    expect(accepted!.event).toBe('order_changed_lb');
    for (const push of [accepted!, filled!]) expect(Object.keys(push.data)).toEqual(expect.arrayContaining(PUSH_FIELDS));
    expect(accepted!.data).toMatchObject({
      order_id: orderId,
      status: 'NewStatus',
      last_share: '',
      last_price: '',
      executed_price: '0',
      account_no: 'SIM042',
      remark: 'client-7',
    });
    expect(filled!.data).toMatchObject({
      status: 'FilledStatus',
      last_share: '200',
      last_price: String(tick.price),
      executed_quantity: '200',
      updated_at: String(Math.floor(tick.time / 1000)),
    });
    const [first, second] = await updates;
    expect([first!.status, second!.status, second!.lastShare?.toFixed(), second!.lastPrice?.toNumber(), second!.accountNo]).toEqual([
      'NewStatus',
      'FilledStatus',
      '200',
      tick.price,
      'SIM042',
    ]);
  });

  it('holds only the private topic and refuses others with a reason', async () => {
    await trade.open();
    const answer = await trade.connection.call(
      TRADE_COMMANDS.subscribe,
      messages.sub,
      { topics: ['private', 'public'] },
      messages.subResponse,
    );
    expect(answer).toEqual({ success: ['private'], fail: [{ topic: 'public', reason: 'unknown topic "public"' }], current: ['private'] });
    expect(trade.subscribedTopics).toEqual(['private']);
  });

  it('stops pushing once the private topic is given up', async () => {
    const updates = firstValueFrom(trade.orderUpdates().pipe(take(1)));
    await trade.open();
    const unsubscribed = await trade.connection.call(
      TRADE_COMMANDS.unsubscribe,
      messages.unsub,
      { topics: ['private'] },
      messages.unsubResponse,
    );
    expect(unsubscribed.current).toEqual([]);
    const unseen = await h.http.submitOrder(buy);
    await trade.connection.call(TRADE_COMMANDS.subscribe, messages.sub, { topics: ['private'] }, messages.subResponse);
    h.clock.advanceBy(1000);
    const seen = await h.http.submitOrder(buy);
    const update = await updates;
    expect(update.orderId).toBe(seen.orderId);
    expect(update.orderId).not.toBe(unseen.orderId);
  });
});
