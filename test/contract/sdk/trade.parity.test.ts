// The trade calls through the SDK and our client on one account: each places, replaces and cancels orders of its
// own, both receive every order push, and both read the same orders, executions (today's, and yesterday's as
// history), balances, positions, cash flow (the venue's real fills and fees), fund positions, margin ratios and
// buy limits; then both unsubscribe the private topic.
import { Decimal as SdkDecimal } from 'longport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.js';
import { Price } from '../../../src/domain/price.js';
import { Quantity } from '../../../src/domain/quantity.js';
import type { Order } from '../../../src/domain/order.js';
import type { TradeClient } from '../../../src/openapi/socket/trade-client.js';
import { HK, localInstant } from '../../support/sim/candles.js';
import { SDK_BALANCE_TYPE, SDK_DAY_ORDER, SDK_ORDER_TYPE, SDK_PRIVATE_TOPIC, SDK_SIDE } from '../../support/sdk-enums.js';
import { Pushes } from '../pushes.js';
import { dec, ms, sdkJson, startParity, until, type ParityHarness } from './parity-harness.js';
import { SDK_CALLS } from './sdk-calls.js';

type Row = Record<string, unknown>;
const WITH_SUFFIX = new Set([
  'New',
  'PendingReplace',
  'Replaced',
  'PartialFilled',
  'Filled',
  'PendingCancel',
  'Rejected',
  'Canceled',
  'Expired',
]);
/** An SDK status name ("Filled") as the wire names it ("FilledStatus"). */
const wireStatus = (name: unknown): string => (WITH_SUFFIX.has(String(name)) ? `${String(name)}Status` : String(name));

let h: ParityHarness;
let trade: TradeClient;
const sdkPushes = new Pushes<Row>();
const ourPushes = new Pushes<Row>();

beforeAll(async () => {
  h = await startParity({ venue: { fees: 'hk-stock' } });
  h.stepUntil((tick) => tick.symbol === HK);
  h.sdkTrade.setOnOrderChanged((_error, event) => sdkPushes.add(sdkJson(event)));
  await h.sdkTrade.subscribe([SDK_PRIVATE_TOPIC]);
  trade = h.tradeClient();
  trade.orderUpdates().subscribe((update) => ourPushes.add(update as unknown as Row));
  await trade.open();
});

afterAll(async () => {
  expect(SDK_CALLS.trade.filter((call) => !h.called.has(call))).toEqual([]);
  await h.close();
});

const orderShape = (row: Row) => [
  row['orderId'],
  wireStatus(row['status']),
  row['symbol'],
  row['side'],
  row['orderType'],
  dec(row['quantity'] ?? row['submittedQuantity']),
  dec(row['executedQuantity']),
  dec(row['price']),
  dec(row['executedPrice']),
  row['remark'],
  ms(row['submittedAt']),
];
const ours = (order: Order): Row => order as unknown as Row;
const pushShape = (row: Row) => [
  row['orderId'],
  wireStatus(row['status']),
  dec(row['executedQuantity']),
  dec(row['executedPrice']),
  dec(row['lastShare']),
  dec(row['lastPrice']),
  row['remark'],
];

describe('the SDK and our client trade on one account and read the same books', () => {
  it('place, replace and cancel orders, each seeing every push', async () => {
    const sdkOrder = await h.sdkTrade.submitOrder({
      symbol: HK,
      orderType: SDK_ORDER_TYPE.MO,
      side: SDK_SIDE.Buy,
      submittedQuantity: new SdkDecimal('300'),
      timeInForce: SDK_DAY_ORDER,
      remark: 'by sdk',
    });
    const ourOrder = await h.http.submitOrder({
      symbol: HK,
      side: 'Buy',
      orderType: 'MO',
      quantity: Quantity.of(200),
      timeInForce: 'Day',
      remark: 'by us',
    });
    h.stepUntil((tick) => tick.symbol === HK);
    const filled = (orderId: string) => (row: Row) => row['orderId'] === orderId && wireStatus(row['status']) === 'FilledStatus';
    await Promise.all([sdkPushes.next(filled(sdkOrder.orderId)), sdkPushes.next(filled(ourOrder.orderId))]);
    await Promise.all([ourPushes.next(filled(sdkOrder.orderId)), ourPushes.next(filled(ourOrder.orderId))]);

    const mark = Price.of(h.sim.venue.markPrice(HK)!);
    const resting = await h.sdkTrade.submitOrder({
      symbol: HK,
      orderType: SDK_ORDER_TYPE.LO,
      side: SDK_SIDE.Buy,
      submittedQuantity: new SdkDecimal('100'),
      submittedPrice: new SdkDecimal(mark.minus(Price.of(10)).toFixed()),
      timeInForce: SDK_DAY_ORDER,
    });
    const ourResting = await h.http.submitOrder({
      symbol: HK,
      side: 'Buy',
      orderType: 'LO',
      quantity: Quantity.of(100),
      price: mark.minus(Price.of(12)),
      timeInForce: 'Day',
    });
    await h.sdkTrade.replaceOrder({
      orderId: ourResting.orderId,
      quantity: new SdkDecimal('400'),
      price: new SdkDecimal(mark.minus(Price.of(11)).toFixed()),
    });
    await h.http.replaceOrder(resting.orderId, { quantity: Quantity.of(500), price: mark.minus(Price.of(9)) });
    await h.sdkTrade.cancelOrder(resting.orderId);
    await h.http.cancelOrder(ourResting.orderId);
    const cancelled = (orderId: string) => (row: Row) => row['orderId'] === orderId && wireStatus(row['status']) === 'CanceledStatus';
    await Promise.all([sdkPushes.next(cancelled(resting.orderId)), sdkPushes.next(cancelled(ourResting.orderId))]);
    await Promise.all([ourPushes.next(cancelled(resting.orderId)), ourPushes.next(cancelled(ourResting.orderId))]);
    await until(() => sdkPushes.all.length === ourPushes.all.length);
    expect(ourPushes.all.map(pushShape)).toEqual(sdkPushes.all.map(pushShape));
    expect(ourPushes.all.length).toBeGreaterThanOrEqual(10);

    const sdkToday = sdkJson<Row[]>(await h.sdkTrade.todayOrders());
    const ourToday = await h.http.todayOrders();
    expect(ourToday.map((order) => orderShape(ours(order)))).toEqual(sdkToday.map(orderShape));
    expect(ourToday.map((order) => order.status)).toEqual(['FilledStatus', 'FilledStatus', 'CanceledStatus', 'CanceledStatus']);
    for (const orderId of [resting.orderId, ourResting.orderId]) {
      const sdkDetail = sdkJson<Row>(await h.sdkTrade.orderDetail(orderId));
      const ourDetail = await h.http.orderDetail(orderId);
      expect([
        ...orderShape(ours(ourDetail)),
        ourDetail.history.map((entry) => [entry.status, dec(entry.price), dec(entry.quantity)]),
      ]).toEqual([
        ...orderShape(sdkDetail),
        (sdkDetail['history'] as Row[]).map((entry) => [wireStatus(entry['status']), dec(entry['price']), dec(entry['quantity'])]),
      ]);
    }
    expect((await h.http.orderDetail(resting.orderId)).quantity.toFixed()).toBe('500');
  });

  it("read today's executions, and after the day yesterday's as history", async () => {
    const execution = (row: Row) => [
      row['orderId'],
      row['tradeId'],
      row['symbol'],
      ms(row['tradeDoneAt']),
      dec(row['quantity']),
      dec(row['price']),
    ];
    const sdkToday = sdkJson<Row[]>(await h.sdkTrade.todayExecutions({ symbol: HK }));
    const ourToday = await h.http.todayExecutions({ symbol: HK });
    expect(ourToday.map((row) => execution(row as unknown as Row))).toEqual(sdkToday.map(execution));
    expect(ourToday.map((row) => row.quantity.toFixed())).toEqual(['300', '200']);
    const [first] = ourToday;
    const sdkOne = sdkJson<Row[]>(await h.sdkTrade.todayExecutions({ orderId: first!.orderId }));
    expect((await h.http.todayExecutions({ orderId: first!.orderId })).map((row) => execution(row as unknown as Row))).toEqual(
      sdkOne.map(execution),
    );

    h.stepUntil((tick) => tick.symbol === HK && tick.time >= localInstant(HK, '2024-01-03', 9, 31));
    expect(await h.http.todayExecutions()).toEqual([]);
    const sdkHistory = sdkJson<Row[]>(await h.sdkTrade.historyExecutions({ symbol: HK }));
    const ourHistory = await h.http.historyExecutions({ symbol: HK });
    expect(ourHistory.map((row) => execution(row as unknown as Row))).toEqual(sdkHistory.map(execution));
    expect(ourHistory.map((row) => row.quantity.toFixed())).toEqual(['300', '200']);
    const range = { startAt: localInstant(HK, '2024-01-02', 0, 0), endAt: localInstant(HK, '2024-01-02', 9, 30) };
    const sdkNone = sdkJson<Row[]>(await h.sdkTrade.historyExecutions({ startAt: new Date(range.startAt), endAt: new Date(range.endAt) }));
    expect([await h.http.historyExecutions(range), sdkNone]).toEqual([[], []]);
    const sdkOrders = sdkJson<Row[]>(await h.sdkTrade.historyOrders({ symbol: HK }));
    const ourOrders = await h.http.historyOrders({ symbol: HK });
    expect(ourOrders.orders.map((order) => orderShape(ours(order)))).toEqual(sdkOrders.map(orderShape));
    expect(ourOrders.orders).toHaveLength(4);
  });

  it('read the same balances, positions, cash flow, fund positions, margin ratios and buy limits', async () => {
    const sdkBalances = sdkJson<Row[]>(await h.sdkTrade.accountBalance());
    const ourBalances = await h.http.accountBalance();
    const balance = (row: Row) => [
      row['currency'],
      ...['totalCash', 'netAssets', 'buyPower', 'initMargin', 'maintenanceMargin', 'marginCall'].map((key) => dec(row[key])),
      row['riskLevel'],
    ];
    expect(ourBalances.map((row) => balance(row as unknown as Row))).toEqual(sdkBalances.map(balance));
    expect(ourBalances.map((row) => row.currency)).toEqual(['HKD', 'USD']);

    const sdkPositions = sdkJson<{ channels: { accountChannel: string; positions: Row[] }[] }>(await h.sdkTrade.stockPositions([HK]));
    const ourPositions = await h.http.positions([HK]);
    const position = (row: Row) => [
      row['symbol'],
      ...['quantity', 'availableQuantity', 'costPrice', 'initQuantity'].map((key) => dec(row[key])),
      row['currency'],
      row['market'],
    ];
    expect(ourPositions.map((row) => [row.accountChannel, ...position(row as unknown as Row)])).toEqual(
      sdkPositions.channels.flatMap((channel) => channel.positions.map((row) => [channel.accountChannel, ...position(row)])),
    );
    expect(ourPositions.map((row) => row.quantity.toFixed())).toEqual(['500']);

    const window = { startAt: localInstant(HK, '2024-01-01', 0, 0), endAt: localInstant(HK, '2024-01-05', 0, 0) };
    const flow = (row: Row) => [
      row['transactionFlowName'] ?? row['name'],
      String(row['direction']).toLowerCase(),
      String(row['businessType']).toLowerCase(),
      dec(row['balance']),
      row['currency'],
      ms(row['businessTime']),
      row['symbol'] ?? null,
      row['description'],
    ];
    const sdkFlows = sdkJson<Row[]>(await h.sdkTrade.cashFlow({ startAt: new Date(window.startAt), endAt: new Date(window.endAt) }));
    const ourFlows = await h.http.cashFlow(window);
    expect(ourFlows.map((row) => flow(row as unknown as Row))).toEqual(sdkFlows.map(flow));
    const cashOut = ourFlows.filter((row) => row.businessType === 'cash').reduce((sum, row) => sum.plus(row.balance), new Decimal(0));
    expect(new Decimal(1_000_000).minus(cashOut).toFixed()).toBe(ourBalances[0]!.totalCash.toFixed());
    const sdkStock = sdkJson<Row[]>(
      await h.sdkTrade.cashFlow({
        ...{ startAt: new Date(window.startAt), endAt: new Date(window.endAt) },
        businessType: SDK_BALANCE_TYPE.Stock,
        page: 1,
        size: 1,
      }),
    );
    const ourStock = await h.http.cashFlow({ ...window, businessType: 'stock', page: 1, size: 1 });
    expect(ourStock.map((row) => flow(row as unknown as Row))).toEqual(sdkStock.map(flow));
    expect(ourStock.map((row) => [row.businessType, row.balance.toFixed()])).toEqual([['stock', '200']]);

    const sdkFunds = sdkJson<{ channels: Row[] }>(await h.sdkTrade.fundPositions());
    expect([await h.http.fundPositions(), sdkFunds.channels.flatMap((channel) => channel['positions'] as Row[])]).toEqual([[], []]);

    const sdkRatio = sdkJson<Row>(await h.sdkTrade.marginRatio(HK));
    const ourRatio = await h.http.marginRatio(HK);
    expect([ourRatio.imFactor, ourRatio.mmFactor, ourRatio.fmFactor].map(dec)).toEqual(
      [sdkRatio['imFactor'], sdkRatio['mmFactor'], sdkRatio['fmFactor']].map(dec),
    );
    const sdkLimit = sdkJson<Row>(
      await h.sdkTrade.estimateMaxPurchaseQuantity({
        symbol: HK,
        orderType: SDK_ORDER_TYPE.LO,
        side: SDK_SIDE.Buy,
        price: new SdkDecimal('300'),
        fractionalShares: false,
      }),
    );
    const ourLimit = await h.http.estimateBuyLimit({ symbol: HK, orderType: 'LO', side: 'Buy', price: Price.of(300) });
    expect([dec(ourLimit.cashMaxQty), dec(ourLimit.marginMaxQty)]).toEqual([dec(sdkLimit['cashMaxQty']), dec(sdkLimit['marginMaxQty'])]);
  });

  it('unsubscribe the private topic: the service holds it for neither any more', async () => {
    const topics = () =>
      h.sim
        .connections()
        .filter((connection) => connection.kind === 'trade')
        .map((connection) => connection.topics);
    expect(topics()).toEqual([['private'], ['private']]);
    await h.sdkTrade.unsubscribe([SDK_PRIVATE_TOPIC]);
    expect(await trade.unsubscribe()).toEqual([]);
    expect(topics()).toEqual([[], []]);
    expect(trade.subscribedTopics).toEqual([]);
  });
});
