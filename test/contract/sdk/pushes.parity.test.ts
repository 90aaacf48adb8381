// Subscriptions and what they bring, through the SDK and our client at once: quote, depth, broker-queue and trade
// pushes, live candlesticks (1-minute bars from trades, the day bar from quotes), the subscription list, the
// realtime getters over the local state, and unsubscribing.
import type { Subscription } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fixed } from '../../../src/domain/fixed.js';
import type { Candle } from '../../../src/domain/candle.js';
import type { CandlestickUpdate } from '../../../src/openapi/socket/live-candles.js';
import { HK, localInstant } from '../../support/sim/candles.js';
import { serverHolds } from '../../support/sim/server-holds.js';
import { SDK_INTRADAY, SDK_PERIOD, SDK_SUB } from '../../support/sdk-enums.js';
import { Pushes } from '../pushes.js';
import { dec, ms, sdkJson, startParity, until, type ParityHarness } from './parity-harness.js';
import { SDK_CALLS } from './sdk-calls.js';

type Row = Record<string, unknown>;
interface Event {
  readonly kind: string;
  readonly value: Row;
}

let h: ParityHarness;
const sdkEvents = new Pushes<Event>();
const ourEvents = new Pushes<Event>();
const streams: Subscription[] = [];
const SDK_PERIOD_OF: Readonly<Record<string, number>> = { '1m': SDK_PERIOD.OneMinute, day: SDK_PERIOD.Day };

const candle = (row: Row) => [
  ms(row['timestamp'] ?? row['time']),
  ...['open', 'high', 'low', 'close'].map((key) => dec(row[key])),
  row['volume'],
  dec(row['turnover']),
];
const ourCandle = (bar: Candle) =>
  candle({
    ...bar,
    open: Fixed.of(bar.open),
    high: Fixed.of(bar.high),
    low: Fixed.of(bar.low),
    close: Fixed.of(bar.close),
    turnover: Fixed.of(bar.turnover ?? 0),
  });
const quoteShape = (row: Row) => [
  row['symbol'],
  ...['lastDone', 'open', 'high', 'low', 'turnover'].map((key) => dec(row[key])),
  row['volume'],
  ms(row['timestamp']),
];
const level = (row: Row) => [row['position'], dec(row['price']), row['volume'], row['orderNum'] ?? row['orderCount']];
const trade = (row: Row) => [dec(row['price']), row['volume'], ms(row['timestamp']), row['tradeType']];

beforeAll(async () => {
  h = await startParity();
  h.stepUntil((tick) => tick.symbol === HK && tick.time >= localInstant(HK, '2024-01-02', 9, 35));
  const sdk = h.sdkQuote;
  sdk.setOnQuote((_error, event) => sdkEvents.add({ kind: 'quote', value: { symbol: event.symbol, ...sdkJson(event.data) } }));
  sdk.setOnDepth((_error, event) => sdkEvents.add({ kind: 'depth', value: sdkJson(event.data) }));
  sdk.setOnBrokers((_error, event) => sdkEvents.add({ kind: 'brokers', value: sdkJson(event.data) }));
  sdk.setOnTrades((_error, event) => sdkEvents.add({ kind: 'trades', value: sdkJson(event.data) }));
  sdk.setOnCandlestick((_error, event) => sdkEvents.add({ kind: 'candle', value: { symbol: event.symbol, ...sdkJson(event.data) } }));
  await sdk.subscribe([HK], [SDK_SUB.Quote, SDK_SUB.Depth, SDK_SUB.Brokers, SDK_SUB.Trade], true);
  const ours = h.quotes;
  streams.push(
    ours.quotes([HK]).subscribe((quote) => ourEvents.add({ kind: 'quote', value: quote as unknown as Row })),
    ours.depth([HK]).subscribe((depth) => ourEvents.add({ kind: 'depth', value: depth as unknown as Row })),
    ours.brokers([HK]).subscribe((brokers) => ourEvents.add({ kind: 'brokers', value: brokers as unknown as Row })),
    ours.trades([HK]).subscribe((trades) => ourEvents.add({ kind: 'trades', value: trades as unknown as Row })),
    ours.candlesticks$.subscribe((update: CandlestickUpdate) => ourEvents.add({ kind: 'candle', value: update as unknown as Row })),
  );
  await serverHolds(ours, HK);
  await until(async () => (await ours.subscriptions()).find((row) => row.symbol === HK)?.subTypes.length === 4);
});

afterAll(async () => {
  for (const stream of streams) stream.unsubscribe();
  expect(SDK_CALLS.pushes.filter((call) => !h.called.has(call))).toEqual([]);
  await h.close();
});

describe('the SDK and our client see the same pushes and keep the same local state', () => {
  it('start live candles from the latest candles of the service, and list the subscriptions', async () => {
    const sdkMinutes = sdkJson<Row[]>(await h.sdkQuote.subscribeCandlesticks(HK, SDK_PERIOD.OneMinute, SDK_INTRADAY));
    const ourMinutes = await h.quotes.subscribeCandlesticks(HK, '1m');
    expect(ourMinutes.map(ourCandle)).toEqual(sdkMinutes.map(candle));
    expect(ourMinutes.at(-1)?.time).toBe(localInstant(HK, '2024-01-02', 9, 35));
    const sdkDays = sdkJson<Row[]>(await h.sdkQuote.subscribeCandlesticks(HK, SDK_PERIOD.Day, SDK_INTRADAY));
    const ourDays = await h.quotes.subscribeCandlesticks(HK, 'day');
    expect(ourDays.map(ourCandle)).toEqual(sdkDays.map(candle));
    // The SDK 3.0.18 reads every held sub type as Quote (getter and toJSON alike): its count is what it tells.
    const sdkList = await h.sdkQuote.subscriptions();
    const ourList = await h.quotes.subscriptions();
    expect(ourList.map((row) => [row.symbol, row.subTypes.length, row.candlesticks.map((period) => SDK_PERIOD_OF[period]).sort()])).toEqual(
      sdkList.map((row) => [row.symbol, row.subTypes.length, [...row.candlesticks].sort()]),
    );
    expect(ourList.map((row) => row.subTypes)).toEqual([['quote', 'depth', 'brokers', 'trades']]);
    expect(ourList.map((row) => row.symbol)).toEqual([HK]);
  });

  it('deliver the same pushes and build the same candles as the replay moves across minutes', async () => {
    const ticks = Array.from({ length: 14 }, () => h.stepUntil((tick) => tick.symbol === HK));
    const last = ticks.at(-1)!;
    const lastSecond = Math.floor(last.time / 1000) * 1000;
    const tradedAt = (event: Event) => event.kind === 'trades' && ms((event.value['trades'] as Row[]).at(-1)?.['timestamp']) === lastSecond;
    await Promise.all([sdkEvents.next(tradedAt), ourEvents.next(tradedAt)]);
    // The SDK hands each kind to its handler in turn, so its quotes, depth and brokers may trail its trades.
    const count = (events: readonly Event[], kind: string) => events.filter((event) => event.kind === kind).length;
    await until(() =>
      ['quote', 'depth', 'brokers', 'trades', 'candle'].every((kind) => count(sdkEvents.all, kind) === count(ourEvents.all, kind)),
    );

    // The SDK calls each kind's handler in order, but not the kinds in the order they arrived: compare per kind.
    const kinds = (events: readonly Event[], kind: string) => events.filter((event) => event.kind === kind).map((event) => event.value);
    const sdk = sdkEvents.all;
    const ours = ourEvents.all;
    expect(kinds(ours, 'quote').map(quoteShape)).toEqual(kinds(sdk, 'quote').map(quoteShape));
    expect(kinds(ours, 'quote')).toHaveLength(15);
    expect(kinds(ours, 'depth').map((row) => (row['asks'] as Row[]).map(level))).toEqual(
      kinds(sdk, 'depth').map((row) => (row['asks'] as Row[]).map(level)),
    );
    expect(kinds(ours, 'brokers').map((row) => row['askBrokers'])).toEqual(kinds(sdk, 'brokers').map((row) => row['askBrokers']));
    expect(kinds(ours, 'trades').flatMap((row) => (row['trades'] as Row[]).map(trade))).toEqual(
      ticks.map((tick) => [Fixed.of(tick.price).toFixed(), tick.volume, Math.floor(tick.time / 1000) * 1000, '']),
    );
    expect(kinds(ours, 'trades').flatMap((row) => (row['trades'] as Row[]).map(trade))).toEqual(
      kinds(sdk, 'trades').flatMap((row) => (row['trades'] as Row[]).map(trade)),
    );
    const pushedCandle = (row: Row) => [
      row['period'] === 'day' || row['period'] === 'Day' ? 'day' : '1m',
      ...candle((row['candle'] ?? row['candlestick']) as Row),
      row['confirmed'] ?? row['isConfirmed'],
    ];
    expect(kinds(ours, 'candle').map(pushedCandle)).toEqual(kinds(sdk, 'candle').map(pushedCandle));
    expect(kinds(ours, 'candle').filter((row) => row['confirmed'] === true).length).toBeGreaterThanOrEqual(3);
  });

  it('answer the realtime getters from the same state', async () => {
    const sdkQuote = sdkJson<Row[]>(await h.sdkQuote.realtimeQuote([HK]));
    expect(h.quotes.realtimeQuote([HK]).map((row) => quoteShape(row as unknown as Row))).toEqual(sdkQuote.map(quoteShape));
    const sdkDepth = sdkJson<{ asks: Row[]; bids: Row[] }>(await h.sdkQuote.realtimeDepth(HK));
    const ourDepth = h.quotes.realtimeDepth(HK);
    expect([ourDepth.asks.map((row) => level(row as unknown as Row)), ourDepth.bids.map((row) => level(row as unknown as Row))]).toEqual([
      sdkDepth.asks.map(level),
      sdkDepth.bids.map(level),
    ]);
    expect(ourDepth.asks).toHaveLength(5);
    const sdkBrokers = sdkJson<Row>(await h.sdkQuote.realtimeBrokers(HK));
    const ourBrokers = h.quotes.realtimeBrokers(HK);
    expect([ourBrokers.askBrokers, ourBrokers.bidBrokers]).toEqual([sdkBrokers['askBrokers'], sdkBrokers['bidBrokers']]);
    const sdkTrades = sdkJson<Row[]>(await h.sdkQuote.realtimeTrades(HK, 10));
    expect(h.quotes.realtimeTrades(HK, 10).map((row) => trade(row as unknown as Row))).toEqual(sdkTrades.map(trade));
    expect(h.quotes.realtimeTrades(HK, 10)).toHaveLength(10);
    for (const [sdkPeriod, period] of [
      [SDK_PERIOD.OneMinute, '1m'],
      [SDK_PERIOD.Day, 'day'],
    ] as const) {
      const sdkCandles = sdkJson<Row[]>(await h.sdkQuote.realtimeCandlesticks(HK, sdkPeriod, 8));
      expect(h.quotes.realtimeCandlesticks(HK, period, 8).map(ourCandle)).toEqual(sdkCandles.map(candle));
    }
    const state = h.quotes.realtime.snapshot.get(HK)!;
    expect([state.quote?.lastDone.toFixed(), state.candlesticks.get('1m')?.at(-1)?.time]).toEqual([
      h.quotes.realtimeQuote([HK])[0]?.lastDone.toFixed(),
      h.quotes.realtimeCandlesticks(HK, '1m', 1)[0]?.time,
    ]);
  });

  it('unsubscribe kinds and candlesticks alike', async () => {
    await h.sdkQuote.unsubscribe([HK], [SDK_SUB.Depth, SDK_SUB.Brokers]);
    streams[1]!.unsubscribe();
    streams[2]!.unsubscribe();
    await h.sdkQuote.unsubscribeCandlesticks(HK, SDK_PERIOD.OneMinute);
    await h.quotes.unsubscribeCandlesticks(HK, '1m');
    await until(async () => (await h.quotes.subscriptions()).find((row) => row.symbol === HK)?.subTypes.length === 2);
    const sdkList = await h.sdkQuote.subscriptions();
    const ourList = await h.quotes.subscriptions();
    expect(ourList.map((row) => [row.symbol, row.subTypes, row.candlesticks])).toEqual([[HK, ['quote', 'trades'], ['day']]]);
    expect(sdkList.map((row) => [row.symbol, row.subTypes.length, [...row.candlesticks]])).toEqual([[HK, 2, [SDK_PERIOD.Day]]]);
  });
});
