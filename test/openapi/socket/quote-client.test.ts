import { firstValueFrom, take, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { QUOTE_COMMANDS } from '../../../src/openapi/socket/commands.js';
import { SubscriptionLimitError } from '../../../src/openapi/socket/errors.js';
import { messages } from '../../../src/openapi/socket/messages.js';
import { QuoteClient } from '../../../src/openapi/socket/quote-client.js';
import { leaseQuoteClient } from '../../../src/openapi/socket/shared-quote-client.js';
import { dailyCandles, HK, quoteOf, US } from '../../support/socket/quote-fixtures.js';
import { QuoteTestService, type QuoteServiceOptions } from '../../support/socket/quote-test-service.js';
import { SocketTestServer } from '../../support/socket/socket-test-server.js';
import { first, stateOf } from '../../support/socket/wait.js';

let server: SocketTestServer;
let service: QuoteTestService;
let client: QuoteClient | undefined;
let clock: VirtualClock;

async function connect(options: QuoteServiceOptions = {}): Promise<QuoteClient> {
  clock = new VirtualClock(Date.UTC(2024, 0, 2, 2));
  server = await SocketTestServer.start({ now: () => clock.now() });
  service = new QuoteTestService(server, options);
  client = await QuoteClient.connect({ url: server.url, clock, otp: async () => ({ otp: 'otp', limit: 1, online: 0 }) });
  return client;
}

afterEach(async () => {
  await client?.close();
  client = undefined;
  await server.stop();
});

const wireRequests = (cmd: number): number => server.requestsFor(cmd).length;

/** Waits (for the socket's I/O, not for time) until the client's next timer on the virtual clock is at `at`. */
async function timerSetFor(at: number): Promise<void> {
  for (let turn = 0; turn < 500 && clock.nextTimerAt() !== at; turn += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(clock.nextTimerAt()).toBe(at);
}

describe('QuoteClient requests', () => {
  it('loads the quote profile right after authentication', async () => {
    const quotes = await connect({ rateLimits: [{ command: 11, limit: 5, burst: 10 }] });
    expect(quotes.profile).toMatchObject({ subscribeLimit: 500, rateLimit: [{ command: 11, limit: 5, burst: 10 }] });
    expect(messages.quoteProfileRequest.decode(server.requestsFor(QUOTE_COMMANDS.profile)[0]!.packet.body)).toEqual({ language: 'en' });
  });

  it('reads static info with the board, quote snapshots and depth, decimal-exact', async () => {
    const quotes = await connect();
    const [info] = await quotes.staticInfo([HK]);
    expect(info).toMatchObject({ symbol: '700.HK', board: 'HKEquity', lotSize: 100 });
    const [snapshot] = await quotes.quote([HK]);
    expect(snapshot!.lastDone.toFixed()).toBe('388.2');
    expect(snapshot!.timestamp).toBe(1_704_165_000_000);
    const depth = await quotes.depthSnapshot(HK);
    expect(depth.asks[0]!.price.toFixed()).toBe('388.4');
    expect(depth.bids[0]).toMatchObject({ volume: 700, orderCount: 4 });
  });

  it('asks for trading days with compact dates and answers with ISO dates', async () => {
    const quotes = await connect();
    const days = await quotes.tradingDays('HK', '2024-01-02', '2024-01-31');
    expect(messages.tradeDayRequest.decode(server.requestsFor(QUOTE_COMMANDS.tradingDays)[0]!.packet.body)).toEqual({
      market: 'HK',
      begDay: '20240102',
      endDay: '20240131',
    });
    expect(days).toEqual({ tradingDays: ['2024-01-02', '2024-01-31'], halfTradingDays: ['2024-01-31'] });
    const sessions = await quotes.tradingSessions();
    expect(sessions[0]!.sessions).toEqual([
      { begin: 930, end: 1200, session: 'normal' },
      { begin: 1300, end: 1600, session: 'normal' },
    ]);
  });

  it('reads capital flow and distribution', async () => {
    const quotes = await connect();
    const flow = await quotes.capitalFlow(HK);
    expect(flow.lines.map((line) => [line.timestamp, line.inflow.toFixed()])).toEqual([
      [1_704_159_000_000, '1.5'],
      [1_704_159_060_000, '-20.25'],
    ]);
    const distribution = await quotes.capitalDistribution(HK);
    expect(distribution.capitalOut.medium.toFixed()).toBe('60.25');
  });

  it('reads the latest candlesticks and history by offset with the requested period and adjustment', async () => {
    const quotes = await connect({ candles: { '700.HK': dailyCandles('2024-01-01', 5) } });
    const latest = await quotes.candlesticks(HK, 'day', 2, { adjust: 'forward' });
    expect(latest.map((candle) => candle.close)).toEqual([104.5, 105.5]);
    expect(messages.candlestickRequest.decode(server.requestsFor(QUOTE_COMMANDS.candlesticks)[0]!.packet.body)).toMatchObject({
      period: 1000,
      count: 2,
      adjustType: 1,
    });
    const older = await quotes.historyByOffset(HK, 'day', { direction: 'backward', date: '2024-01-03', count: 2 });
    expect(older.map((candle) => candle.volume)).toEqual([2000, 3000]);
  });

  it('pages a date range of history without gaps or repeats', async () => {
    const quotes = await connect({ candles: { '700.HK': dailyCandles('2024-01-01', 7) }, pageSize: 2 });
    const pages: number[][] = [];
    for await (const page of quotes.historyPages(HK, 'day', { from: '2024-01-02', to: '2024-01-06' }))
      pages.push(page.map((candle) => candle.volume));
    expect(pages).toEqual([[2000, 3000], [4000, 5000], [6000]]);
    const first27 = messages.historyCandlestickRequest.decode(server.requestsFor(QUOTE_COMMANDS.historyCandlesticks)[0]!.packet.body);
    expect(first27).toMatchObject({ queryType: 2, dateRequest: { startDate: '20240102', endDate: '20240106' }, tradeSession: 0 });
  });

  it('obeys a per-command rate limit from the profile on the injected clock', async () => {
    const quotes = await connect({ rateLimits: [{ command: QUOTE_COMMANDS.quote, limit: 1, burst: 1 }] });
    await quotes.quote([HK]);
    const second = quotes.quote([HK]);
    await clock.advanceByAsync(999);
    expect(wireRequests(QUOTE_COMMANDS.quote)).toBe(1);
    await clock.advanceByAsync(1);
    await second;
    expect(wireRequests(QUOTE_COMMANDS.quote)).toBe(2);
  });

  it('makes a call the service refused as rate limited (301606) again after 1 s, then 2 s, on the injected clock', async () => {
    const quotes = await connect();
    let refusals = 2;
    server.handle(QUOTE_COMMANDS.staticInfo, () =>
      refusals-- > 0
        ? { status: 3, code: 301606, msg: 'rate limited, slow down' }
        : { body: messages.staticInfoResponse.encode({ secuStaticInfo: [] }) },
    );
    const start = clock.now();
    // The wait before a retry starts when the refusal has come back: its timer is then the next one.
    const waitingUntil = (at: number) => timerSetFor(at);
    const answer = quotes.staticInfo([HK]);
    await waitingUntil(start + 1_000);
    await clock.advanceByAsync(999);
    expect(wireRequests(QUOTE_COMMANDS.staticInfo)).toBe(1);
    await clock.advanceByAsync(1);
    await waitingUntil(start + 3_000);
    expect(wireRequests(QUOTE_COMMANDS.staticInfo)).toBe(2);
    await clock.advanceByAsync(1_999);
    expect(wireRequests(QUOTE_COMMANDS.staticInfo)).toBe(2);
    await clock.advanceByAsync(1);
    await expect(answer).resolves.toEqual([]);
    expect(wireRequests(QUOTE_COMMANDS.staticInfo)).toBe(3);
  });

  it("gives up on a call still refused as rate limited after five more tries, with the service's words", async () => {
    const quotes = await connect();
    server.handle(QUOTE_COMMANDS.staticInfo, () => ({ status: 3, code: 301606, msg: 'rate limited, slow down' }));
    const answer = quotes.staticInfo([HK]).catch((error: unknown) => error);
    let at = clock.now();
    for (const wait of [1_000, 2_000, 4_000, 8_000, 16_000]) {
      at += wait;
      await timerSetFor(at);
      await clock.advanceByAsync(wait);
    }
    expect(String(await answer)).toMatch(/code 301606.*rate limited, slow down/);
    expect(wireRequests(QUOTE_COMMANDS.staticInfo)).toBe(6);
  });

  it('keeps at most 5 calls in flight', async () => {
    const quotes = await connect();
    const release: (() => void)[] = [];
    server.handle(
      QUOTE_COMMANDS.staticInfo,
      () => new Promise((resolve) => release.push(() => resolve({ body: messages.staticInfoResponse.encode({ secuStaticInfo: [] }) }))),
    );
    const calls = Array.from({ length: 6 }, () => quotes.staticInfo([HK]));
    await server.until(() => wireRequests(QUOTE_COMMANDS.staticInfo) === 5);
    await clock.advanceByAsync(0);
    expect(wireRequests(QUOTE_COMMANDS.staticInfo)).toBe(5);
    release.shift()!();
    await server.until(() => wireRequests(QUOTE_COMMANDS.staticInfo) === 6);
    for (const answer of release.splice(0)) answer();
    await Promise.all(calls);
  });

  it('keeps history candlesticks within 60 calls per 30 s', async () => {
    const quotes = await connect({ candles: { '700.HK': dailyCandles('2024-01-01', 1) } });
    const calls = Array.from({ length: 61 }, () => quotes.historyByDate(HK, 'day', '2024-01-01', '2024-01-01'));
    for (let second = 0; second < 7; second++) await clock.advanceByAsync(1_000);
    await server.until(() => wireRequests(QUOTE_COMMANDS.historyCandlesticks) === 60);
    await clock.advanceByAsync(22_999);
    expect(wireRequests(QUOTE_COMMANDS.historyCandlesticks)).toBe(60);
    await clock.advanceByAsync(1);
    await Promise.all(calls);
    expect(wireRequests(QUOTE_COMMANDS.historyCandlesticks)).toBe(61);
  });
});

describe('QuoteClient subscriptions', () => {
  it('streams quote pushes for the subscribed symbols only, plain and gzip-compressed', async () => {
    const quotes = await connect();
    const received = firstValueFrom(quotes.quotes([HK]).pipe(take(2), toArray()));
    await server.until(() => service.subscribedSymbols().includes('700.HK'));
    const subscribe = messages.subscribeRequest.decode(server.requestsFor(QUOTE_COMMANDS.subscribe)[0]!.packet.body);
    expect(subscribe).toEqual({ symbol: ['700.HK'], subType: [1], isFirstPush: true });
    service.pushQuote(quoteOf(HK, '388.2', 1_704_165_000_000, 100));
    service.pushQuote(quoteOf(HK, '388.4', 1_704_165_001_000, 200), { gzip: true });
    const values = await received;
    expect(values.map((quote) => [quote.symbol, quote.lastDone.toFixed(), quote.volume])).toEqual([
      ['700.HK', '388.2', 100],
      ['700.HK', '388.4', 200],
    ]);
  });

  it('drops an unreadable push and keeps the stream alive', async () => {
    const quotes = await connect();
    const received = first(quotes.quotes([HK]));
    await server.until(() => service.subscribedSymbols().includes('700.HK'));
    server.push(101, new Uint8Array([0x0a, 0xff, 0xff]));
    service.pushQuote(quoteOf(HK, '5', 1_704_165_000_000, 1));
    expect((await received).lastDone.toFixed()).toBe('5');
  });

  it('streams depth and trade pushes', async () => {
    const quotes = await connect();
    const depth = first(quotes.depth([HK]));
    const trades = first(quotes.trades([HK]));
    await server.until(() => server.requestsFor(QUOTE_COMMANDS.subscribe).length === 2);
    service.pushTo(
      '700.HK',
      2,
      102,
      messages.pushDepth.encode({ symbol: '700.HK', sequence: 3, ask: [{ position: 1, price: '1.5', volume: 10, orderNum: 1 }], bid: [] }),
    );
    service.pushTo(
      '700.HK',
      4,
      104,
      messages.pushTrade.encode({
        symbol: '700.HK',
        sequence: 4,
        trade: [{ price: '2.25', volume: 300, timestamp: 1_704_165_000, tradeType: 'D', direction: 2, tradeSession: 0 }],
      }),
      { gzip: true },
    );
    expect((await depth).asks[0]!.price.toFixed()).toBe('1.5');
    expect((await trades).trades[0]).toMatchObject({ volume: 300, timestamp: 1_704_165_000_000, tradeType: 'D', direction: 2 });
  });

  it('subscribes once per symbol however many consumers, and unsubscribes after the last one leaves', async () => {
    const quotes = await connect();
    const a = quotes.quotes([HK]).subscribe();
    const b = quotes.quotes([HK, US]).subscribe();
    await server.until(() => service.subscribedSymbols().length === 2);
    expect(server.requestsFor(QUOTE_COMMANDS.subscribe).map((r) => messages.subscribeRequest.decode(r.packet.body).symbol)).toEqual([
      ['700.HK'],
      ['AAPL.US'],
    ]);
    b.unsubscribe();
    await server.until(() => wireRequests(QUOTE_COMMANDS.unsubscribe) === 1);
    expect(messages.unsubscribeRequest.decode(server.requestsFor(QUOTE_COMMANDS.unsubscribe)[0]!.packet.body)).toMatchObject({
      symbol: ['AAPL.US'],
      subType: [1],
    });
    expect(service.subscribedSymbols()).toEqual(['700.HK']);
    a.unsubscribe();
    await server.until(() => service.subscribedSymbols().length === 0);
    expect(quotes.subscribedSymbols).toBe(0);
  });

  it('refuses the 501st symbol with a clear error before sending anything', async () => {
    const quotes = await connect();
    const many = Array.from({ length: 500 }, (_, index) => parseSymbol(`${index + 1}.HK`));
    quotes.quotes(many).subscribe();
    await server.until(() => service.subscribedSymbols().length === 500);
    const failure = await firstValueFrom(quotes.quotes([US])).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SubscriptionLimitError);
    expect((failure as Error).message).toMatch(/501 symbols.*at most 500/);
    expect(wireRequests(QUOTE_COMMANDS.subscribe)).toBe(1);
    expect(quotes.subscribedSymbols).toBe(500);
  });

  it('restores every subscription after a dropped link, exactly once, and keeps the stream flowing', async () => {
    const quotes = await connect();
    const received: string[] = [];
    quotes.quotes([HK, US]).subscribe((quote) => received.push(quote.lastDone.toFixed()));
    quotes.depth([HK]).subscribe();
    await server.until(() => server.requestsFor(QUOTE_COMMANDS.subscribe).length === 2);
    service.pushQuote(quoteOf(HK, '1', 1_704_165_000_000, 1));
    await server.until(() => true);
    await first(quotes.quotes([HK]));
    server.dropAll();
    await stateOf(quotes.state$, 'reconnecting');
    const online = stateOf(quotes.state$, 'online');
    await clock.advanceByAsync(2_000);
    await online;
    const restore = server
      .requestsFor(QUOTE_COMMANDS.subscribe)
      .slice(2)
      .map((r) => messages.subscribeRequest.decode(r.packet.body));
    expect(restore).toEqual([
      { symbol: ['700.HK', 'AAPL.US'], subType: [1], isFirstPush: false },
      { symbol: ['700.HK'], subType: [2], isFirstPush: false },
    ]);
    expect(service.subscribedSymbols()).toEqual(['700.HK', 'AAPL.US'].sort());
    const next = first(quotes.quotes([US]));
    service.pushQuote(quoteOf(US, '2', 1_704_165_000_000, 1));
    await next;
    expect(received).toEqual(['1', '2']);
  });
});

describe('shared quote connection', () => {
  it('gives every consumer of an account the same connection and closes it after the last release', async () => {
    clock = new VirtualClock(0);
    server = await SocketTestServer.start({ now: () => clock.now() });
    service = new QuoteTestService(server);
    const options = { url: server.url, clock, otp: async () => ({ otp: 'otp', limit: 1, online: 0 }) };
    const [a, b] = await Promise.all([leaseQuoteClient('app-key-1', options), leaseQuoteClient('app-key-1', options)]);
    expect(a.client).toBe(b.client);
    expect(server.links).toHaveLength(1);
    await a.release();
    await a.release();
    expect(a.client.connection.state.status).toBe('online');
    await b.release();
    expect(a.client.connection.state.status).toBe('closed');
    const c = await leaseQuoteClient('app-key-1', options);
    expect(c.client).not.toBe(a.client);
    await c.release();
  });
});
