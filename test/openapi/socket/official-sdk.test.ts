// Our messages and packets, served by the test server, read by the official SDK (longport@3.0.18): proof
// that field numbers and types match what real clients decode, for the simulator that reuses them.
import { Config, NaiveDate, QuoteContext, TradeContext, type PushOrderChanged, type PushQuoteEvent } from 'longport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTE_COMMANDS, TRADE_COMMANDS } from '../../../src/openapi/socket/commands.js';
import { messages } from '../../../src/openapi/socket/messages.js';
import { TEST_SECRET, TEST_TOKEN } from '../../support/http/client-harness.js';
import { ok, startFakeOpenApi, type FakeOpenApiServer } from '../../support/http/fake-openapi-server.js';
import { dailyCandles, HK, quoteOf } from '../../support/socket/quote-fixtures.js';
import { QuoteTestService } from '../../support/socket/quote-test-service.js';
import { SocketTestServer } from '../../support/socket/socket-test-server.js';
import { orderChanged, pushNotification, serveTopics } from '../../support/socket/trade-fixtures.js';
import {
  SDK_INTRADAY as INTRADAY,
  SDK_MARKET,
  SDK_NO_ADJUST as NO_ADJUST,
  SDK_PERIOD,
  SDK_PRIVATE_TOPIC as PRIVATE,
  SDK_QUOTE_SUB as QUOTE,
} from '../../support/sdk-enums.js';

const DAY = SDK_PERIOD.Day;
const HK_MARKET = SDK_MARKET.HK;
/** SecurityBoard.HKEquity: the SDK parsed our board text "HKEquity". */
const HK_EQUITY_BOARD = 8;

let http: FakeOpenApiServer;
let socket: SocketTestServer;
let service: QuoteTestService;
let config: Config;

beforeAll(async () => {
  http = await startFakeOpenApi({
    appSecret: TEST_SECRET,
    accessToken: TEST_TOKEN,
    routes: { 'GET /v1/socket/token': () => ok({ otp: 'otp-sdk', limit: 1, online: 0 }) },
  });
  socket = await SocketTestServer.start();
  service = new QuoteTestService(socket, { candles: { '700.HK': dailyCandles('2024-01-01', 5) } });
  serveTopics(socket, ['private']);
  config = new Config({
    appKey: 'sdk',
    appSecret: TEST_SECRET,
    accessToken: TEST_TOKEN,
    httpUrl: http.url,
    quoteWsUrl: socket.url,
    tradeWsUrl: socket.url,
    enablePrintQuotePackages: false,
  });
});

afterAll(async () => {
  await socket.stop();
  await http.close();
});

describe('the official SDK against our messages', () => {
  it('authenticates, loads the profile and reads every quote request', async () => {
    const ctx = await QuoteContext.new(config);
    const [quote] = await ctx.quote(['700.HK']);
    expect([quote!.lastDone.toString(), quote!.prevClose.toString(), quote!.volume, quote!.timestamp.toISOString()]).toEqual([
      '388.2',
      '380',
      1_000_000,
      '2024-01-02T03:10:00.000Z',
    ]);
    const [info] = await ctx.staticInfo(['700.HK']);
    expect([info!.nameEn, info!.lotSize, info!.board]).toEqual(['700.HK Inc', 100, HK_EQUITY_BOARD]);
    const depth = await ctx.depth('700.HK');
    expect([depth.asks[0]!.price?.toString(), depth.bids[0]!.volume]).toEqual(['388.4', 700]);
    const candles = await ctx.candlesticks('700.HK', DAY, 2, NO_ADJUST, INTRADAY);
    expect(candles.map((candle) => [candle.close.toString(), candle.volume, candle.timestamp.toISOString()])).toEqual([
      ['104.5', 4000, '2024-01-03T16:00:00.000Z'],
      ['105.5', 5000, '2024-01-04T16:00:00.000Z'],
    ]);
    const history = await ctx.historyCandlesticksByDate(
      '700.HK',
      DAY,
      NO_ADJUST,
      new NaiveDate(2024, 1, 2),
      new NaiveDate(2024, 1, 3),
      INTRADAY,
    );
    expect(history.map((candle) => candle.open.toString())).toEqual(['101', '102']);
    const days = await ctx.tradingDays(HK_MARKET, new NaiveDate(2024, 1, 2), new NaiveDate(2024, 1, 5));
    expect(days.tradingDays.map(String)).toEqual(['2024-01-02', '2024-01-05']);
    const flow = await ctx.capitalFlow('700.HK');
    expect(flow.map((line) => line.inflow.toString())).toEqual(['1.5', '-20.25']);
    const distribution = await ctx.capitalDistribution('700.HK');
    expect(distribution.capitalOut.medium.toString()).toBe('60.25');
    expect(messages.authRequest.decode(socket.requestsFor(2)[0]!.packet.body).token).toBe('otp-sdk');
  });

  it('subscribes and receives our quote pushes', async () => {
    const ctx = await QuoteContext.new(config);
    const received = new Promise<PushQuoteEvent>((resolve) => ctx.setOnQuote((_error, event) => resolve(event)));
    await ctx.subscribe(['700.HK'], [QUOTE], true);
    const request = messages.subscribeRequest.decode(socket.requestsFor(QUOTE_COMMANDS.subscribe).at(-1)!.packet.body);
    expect(request).toEqual({ symbol: ['700.HK'], subType: [1], isFirstPush: true });
    service.pushQuote(quoteOf(HK, '390.6', 1_704_165_060_000, 2_000), { gzip: true });
    const event = await received;
    expect([event.symbol, event.data.lastDone.toString(), event.data.volume, event.data.timestamp.toISOString()]).toEqual([
      '700.HK',
      '390.6',
      2_000,
      '2024-01-02T03:11:00.000Z',
    ]);
  });

  it('subscribes the private topic and receives our order_changed_lb push', async () => {
    const ctx = await TradeContext.new(config);
    const received = new Promise<PushOrderChanged>((resolve) => ctx.setOnOrderChanged((_error, event) => resolve(event)));
    await ctx.subscribe([PRIVATE]);
    expect(messages.sub.decode(socket.requestsFor(TRADE_COMMANDS.subscribe).at(-1)!.packet.body)).toEqual({ topics: ['private'] });
    pushNotification(socket, { event: 'order_changed_lb', data: orderChanged() });
    const event = await received;
    expect([event.orderId, event.symbol, event.executedQuantity.toString(), event.lastShare?.toString(), event.remark]).toEqual([
      '701276261045858304',
      '700.HK',
      '100',
      '100',
      'client-42',
    ]);
  });
});
