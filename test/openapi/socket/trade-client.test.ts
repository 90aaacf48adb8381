import { take, toArray, firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { TRADE_COMMANDS } from '../../../src/openapi/socket/commands.js';
import { messages } from '../../../src/openapi/socket/messages.js';
import { orderUpdateFromJson } from '../../../src/openapi/socket/order-update.js';
import { TradeClient } from '../../../src/openapi/socket/trade-client.js';
import { SocketTestServer } from '../../support/socket/socket-test-server.js';
import { orderChanged, pushNotification, serveTopics } from '../../support/socket/trade-fixtures.js';
import { stateOf } from '../../support/socket/wait.js';

let server: SocketTestServer;
let client: TradeClient | undefined;
let clock: VirtualClock;

async function connect(current: readonly string[] = ['private']): Promise<TradeClient> {
  clock = new VirtualClock(Date.UTC(2024, 0, 2));
  server = await SocketTestServer.start({ now: () => clock.now() });
  serveTopics(server, current);
  client = await TradeClient.connect({ url: server.url, clock, otp: async () => ({ otp: 'otp', limit: 1, online: 0 }) });
  return client;
}

afterEach(async () => {
  await client?.close();
  client = undefined;
  await server?.stop();
});

describe('order updates from the order_changed_lb push', () => {
  it('maps every field, decimal-exact, with times in epoch ms', () => {
    const update = orderUpdateFromJson(orderChanged());
    expect(update).toMatchObject({
      orderId: '701276261045858304',
      status: 'PartialFilledStatus',
      symbol: '700.HK',
      side: 'Buy',
      orderType: 'LO',
      stockName: 'TENCENT',
      currency: 'HKD',
      remark: 'client-42',
      tag: 'Normal',
      triggerStatus: 'NOT_USED',
      accountNo: 'HK123',
      message: '',
      submittedAt: 1_704_165_000_000,
      updatedAt: 1_704_165_012_000,
      triggerPrice: undefined,
    });
    expect(
      [update.quantity, update.executedQuantity, update.price, update.executedPrice, update.lastShare, update.lastPrice].map(String),
    ).toEqual(['200', '100', '388.2', '388.1', '100', '388.1']);
  });

  it('keeps the trigger time and trailing figures of conditional orders', () => {
    const update = orderUpdateFromJson(
      orderChanged({
        order_type: 'TSLPPCT',
        trigger_at: '1704165100',
        trailing_percent: '0.5',
        limit_offset: '0.02',
        trigger_status: 'ACTIVE',
      }),
    );
    expect(update).toMatchObject({
      orderType: 'TSLPPCT',
      triggerAt: 1_704_165_100_000,
      triggerStatus: 'ACTIVE',
      trailingAmount: undefined,
    });
    expect([update.trailingPercent?.toFixed(), update.limitOffset?.toFixed()]).toEqual(['0.5', '0.02']);
  });

  it('names the missing field of an incomplete push', () => {
    const { last_share: _dropped, ...rest } = orderChanged();
    expect(() => orderUpdateFromJson(rest)).toThrow(/last_share/);
  });
});

describe('TradeClient', () => {
  it('subscribes the private topic after authentication', async () => {
    await connect();
    expect(messages.sub.decode(server.requestsFor(TRADE_COMMANDS.subscribe)[0]!.packet.body)).toEqual({ topics: ['private'] });
  });

  it('streams order updates and drops malformed pushes', async () => {
    const trade = await connect();
    const updates = firstValueFrom(trade.orderUpdates().pipe(take(2), toArray()));
    pushNotification(server, {
      event: 'order_changed_lb',
      data: orderChanged({ status: 'NewStatus', executed_quantity: '0', last_share: '', last_price: '' }),
    });
    pushNotification(server, 'not json');
    pushNotification(server, { event: 'order_changed_lb', data: orderChanged({ last_share: undefined }) });
    pushNotification(server, { event: 'something_else', data: {} });
    pushNotification(server, { event: 'order_changed_lb', data: orderChanged({ status: 'FilledStatus', executed_quantity: '200' }) });
    const values = await updates;
    expect(values.map((update) => [update.status, update.executedQuantity.toFixed(), update.lastShare?.toFixed()])).toEqual([
      ['NewStatus', '0', undefined],
      ['FilledStatus', '200', '100'],
    ]);
  });

  it('re-subscribes the topics of the last SubResponse.current after a reconnect', async () => {
    const trade = await connect(['private', 'notice']);
    expect(trade.subscribedTopics).toEqual(['private', 'notice']);
    server.dropAll();
    await stateOf(trade.state$, 'reconnecting');
    const online = stateOf(trade.state$, 'online');
    await clock.advanceByAsync(2_000);
    await online;
    expect(messages.sub.decode(server.requestsFor(TRADE_COMMANDS.subscribe)[1]!.packet.body)).toEqual({ topics: ['private', 'notice'] });
    const next = firstValueFrom(trade.orderUpdates());
    pushNotification(server, { event: 'order_changed_lb', data: orderChanged() });
    expect((await next).orderId).toBe('701276261045858304');
  });

  it('unsubscribes topics (cmd 17) and does not take them back after a reconnect', async () => {
    const trade = await connect();
    server.handle(TRADE_COMMANDS.unsubscribe, (request) => {
      expect(messages.unsub.decode(request.body)).toEqual({ topics: ['private'] });
      return { body: messages.unsubResponse.encode({ current: [] }) };
    });
    expect(await trade.unsubscribe()).toEqual([]);
    server.dropAll();
    await stateOf(trade.state$, 'reconnecting');
    const online = stateOf(trade.state$, 'online');
    await clock.advanceByAsync(2_000);
    await online;
    expect(server.requestsFor(TRADE_COMMANDS.subscribe)).toHaveLength(1);
    expect(await trade.subscribe(['private'])).toEqual(['private']);
    expect(server.requestsFor(TRADE_COMMANDS.subscribe)).toHaveLength(2);
  });
});
