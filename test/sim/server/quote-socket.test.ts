import { filter, firstValueFrom, take, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/domain/quote.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { QUOTE_COMMANDS } from '../../../src/openapi/socket/commands.js';
import { SocketResponseError } from '../../../src/openapi/socket/errors.js';
import { messages } from '../../../src/openapi/socket/messages.js';
import type { QuoteClient } from '../../../src/openapi/socket/quote-client.js';

import { BARS_PER_DAY, HK, localInstant, minuteCandles, US } from '../../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../../support/sim/harness.js';
import { serverHolds } from '../../support/sim/server-holds.js';
import { first, until } from '../../support/socket/wait.js';

let h: SimHarness;
let quotes: QuoteClient;

async function start(options: Parameters<typeof startSimHarness>[0] = {}): Promise<void> {
  h = await startSimHarness(options);
  quotes = await h.quoteClient();
}

afterEach(async () => {
  await h.close();
});

const responseCode = async (call: Promise<unknown>): Promise<number | undefined> => {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return error instanceof SocketResponseError ? error.serviceCode : undefined;
};

describe('quote pushes', () => {
  it('pushes each replayed tick of a subscribed symbol as a quote, in sequence, and nothing for other symbols', async () => {
    await start();
    const received = firstValueFrom(quotes.quotes([HK]).pipe(take(3), toArray()));
    await serverHolds(quotes, HK);
    const ticks = [h.step()!, h.step()!, h.step()!];
    const pushes: Quote[] = await received;
    expect(pushes.map((quote) => quote.lastDone.toNumber())).toEqual(ticks.map((tick) => tick.price));
    expect(pushes.map((quote) => quote.sequence)).toEqual([1, 2, 3]);
    expect(pushes.map((quote) => quote.volume)).toEqual(ticks.map((tick) => tick.dayVolume));
    expect(pushes.every((quote) => quote.symbol === HK)).toBe(true);
  });

  it('sends the current quote right after subscribing when the symbol has traded', async () => {
    await start();
    const tick = h.stepUntil((candidate) => candidate.symbol === US);
    const quote = await first(quotes.quotes([US]));
    expect([quote.symbol, quote.lastDone.toNumber(), quote.timestamp]).toEqual([US, tick.price, Math.floor(tick.time / 1000) * 1000]);
  });

  it('pushes synthesised depth around the price and the trades of each tick', async () => {
    await start();
    h.step();
    const depth = first(quotes.depth([HK]), (book) => book.sequence === 2);
    const trades = first(quotes.trades([HK]), (print) => print.sequence === 2);
    await serverHolds(quotes, HK);
    const tick = h.step()!;
    const book = await depth;
    expect(book.asks.map((level) => level.position)).toEqual([1, 2, 3, 4, 5]);
    expect(book.bids[0]!.price.toNumber()).toBeLessThanOrEqual(tick.price);
    expect(book.asks[0]!.price.minus(book.bids[0]!.price).toFixed()).toBe('0.2');
    const [trade] = (await trades).trades;
    expect([trade!.price.toNumber(), trade!.volume]).toEqual([tick.price, tick.volume]);
  });

  it('refuses a subscription beyond 500 symbols on one connection with 301607', async () => {
    await start();
    const symbols = Array.from({ length: 501 }, (_, index) => `${index + 1}.HK`);
    const body = messages.subscribeRequest.encode({ symbol: symbols, subType: [1], isFirstPush: false });
    expect(await responseCode(quotes.connection.request(QUOTE_COMMANDS.subscribe, body))).toBe(301607);
    const fits = messages.subscribeRequest.encode({ symbol: symbols.slice(0, 500), subType: [1], isFirstPush: false });
    expect(await responseCode(quotes.connection.request(QUOTE_COMMANDS.subscribe, fits))).toBeUndefined();
  });

  it('refuses quote calls beyond ten per second with 301606', async () => {
    await start({ limits: { http: { calls: 1000, windowMs: 30_000 }, quote: { perSecond: 10, historyPer30s: 60 } } });
    const body = messages.tradeDayRequest.encode({ market: 'HK', begDay: '20240102', endDay: '20240103' });
    const codes: (number | undefined)[] = [];
    // The profile request after auth used one call of this second.
    for (let call = 0; call < 10; call++) codes.push(await responseCode(quotes.connection.request(QUOTE_COMMANDS.tradingDays, body)));
    expect(codes.filter((code) => code === 301606)).toHaveLength(1);
    h.clock.advanceBy(1000);
    expect(await responseCode(quotes.connection.request(QUOTE_COMMANDS.tradingDays, body))).toBeUndefined();
  });
});

describe('quote questions', () => {
  it('answers static info from the data and the names configured', async () => {
    await start({ venue: { stockNames: { '700.HK': 'TENCENT' } } });
    const [hk, us] = await quotes.staticInfo([HK, US, parseSymbol('MSFT.US')]);
    expect([hk!.nameEn, hk!.lotSize, hk!.board, hk!.currency, hk!.listingDate]).toEqual(['TENCENT', 100, 'HKEquity', 'HKD', '20240102']);
    expect([us!.symbol, us!.board, us!.exchange]).toEqual([US, 'USMain', 'NASD']);
  });

  it("quotes the last price with the previous day's close", async () => {
    await start();
    h.stepUntil((tick) => tick.symbol === HK && tick.time >= localInstant(HK, '2024-01-03', 9, 30));
    const dayOneClose = minuteCandles(HK)[BARS_PER_DAY - 1]!.close;
    const [quote] = await quotes.quote([HK]);
    expect([quote!.lastDone.toNumber(), quote!.prevClose.toNumber(), quote!.open.toNumber()]).toEqual([
      dayOneClose,
      dayOneClose,
      dayOneClose,
    ]);
  });

  it('serves candlesticks up to the bar forming now, as far as its ticks went', async () => {
    await start();
    h.step(4 * 3 + 2);
    const bars = await quotes.candlesticks(HK, '1m', 10);
    const source = minuteCandles(HK);
    expect(bars.map((bar) => bar.time)).toEqual(source.slice(0, 4).map((bar) => bar.time));
    expect(bars.slice(0, 3).map((bar) => bar.close)).toEqual(source.slice(0, 3).map((bar) => bar.close));
    expect([bars[3]!.open, bars[3]!.close]).toEqual([source[3]!.open, h.sim.venue.markPrice(HK)]);
    const fiveMinutes = await quotes.candlesticks(HK, '5m', 10);
    expect(fiveMinutes.map((bar) => [bar.time, bar.open])).toEqual([[source[0]!.time, source[0]!.open]]);
  });

  it('serves history by date and by offset in both directions, never past the replay', async () => {
    await start({ from: '2024-01-03' });
    const source = minuteCandles(HK);
    const byDate = await quotes.historyByDate(HK, '1m', '2024-01-01', '2024-01-31');
    expect(byDate.map((bar) => bar.time)).toEqual(source.slice(0, BARS_PER_DAY).map((bar) => bar.time));
    const backward = await quotes.historyByOffset(HK, '1m', { direction: 'backward', count: 3 });
    expect(backward.map((bar) => bar.close)).toEqual(source.slice(BARS_PER_DAY - 3, BARS_PER_DAY).map((bar) => bar.close));
    const forward = await quotes.historyByOffset(HK, '1m', { direction: 'forward', date: '2024-01-02', minute: '0935', count: 2 });
    expect(forward.map((bar) => bar.time)).toEqual([source[5]!.time, source[6]!.time]);
    h.stepUntil((tick) => tick.symbol === HK && tick.point === 'close');
    expect((await quotes.historyByDate(HK, '1m', '2024-01-03', '2024-01-03')).map((bar) => bar.time)).toEqual([source[BARS_PER_DAY]!.time]);
    const daily = await quotes.historyByDate(HK, 'day', '2024-01-01', '2024-01-31');
    expect(daily.map((bar) => [bar.open, bar.volume])).toEqual([[source[0]!.open, BARS_PER_DAY * 10_000]]);
  });

  it('pages a long date range through answers of at most 1000 bars', async () => {
    const dates = Array.from({ length: 60 }, (_, index) => new Date(Date.UTC(2024, 0, 2 + index)))
      .filter((date) => date.getUTCDay() !== 0 && date.getUTCDay() !== 6)
      .map((date) => date.toISOString().slice(0, 10));
    const source = minuteCandles(HK, dates);
    await start({ candles: [source], from: '2024-12-31' });
    const first = await quotes.historyByDate(HK, '1m', dates[0]!, dates.at(-1)!);
    expect(first).toHaveLength(1000);
    const pages: number[] = [];
    for await (const page of quotes.historyPages(HK, '1m', { from: dates[0]!, to: dates.at(-1)! }))
      pages.push(...page.map((bar) => bar.time));
    expect(pages).toEqual(source.map((bar) => bar.time));
  });

  it('refuses a period the data cannot build with 301603', async () => {
    const days = ['2024-01-02', '2024-01-03'].map((date) => ({
      symbol: HK,
      period: 'day' as const,
      time: localInstant(HK, date, 0, 0),
      open: 300,
      high: 301,
      low: 299,
      close: 300,
      volume: 1000,
    }));
    await start({ candles: [days] });
    const body = messages.candlestickRequest.encode({ symbol: HK, period: 1, count: 5, adjustType: 0, tradeSession: 0 });
    expect(await responseCode(quotes.connection.request(QUOTE_COMMANDS.candlesticks, body))).toBe(301603);
  });

  it("counts the data's dates as trading days inside its span and weekdays outside it", async () => {
    await start({ candles: [minuteCandles(HK, ['2024-01-02', '2024-01-04'])] });
    const days = await quotes.tradingDays('HK', '2023-12-29', '2024-01-09');
    expect(days.tradingDays).toEqual(['2023-12-29', '2024-01-01', '2024-01-02', '2024-01-04', '2024-01-05', '2024-01-08', '2024-01-09']);
  });

  it('answers the regular sessions of every market', async () => {
    await start();
    const hk = (await quotes.tradingSessions()).find((market) => market.market === 'HK');
    expect(hk!.sessions.map((session) => [session.begin, session.end])).toEqual([
      [930, 1200],
      [1300, 1600],
    ]);
  });

  it('synthesises capital flow per session minute up to market time, the same for the same seed', async () => {
    await start({ seed: 7 });
    h.stepUntil((tick) => tick.symbol === HK && tick.time >= localInstant(HK, '2024-01-02', 9, 40));
    const flow = await quotes.capitalFlow(HK);
    expect(flow.lines.map((line) => line.timestamp)).toEqual(
      Array.from({ length: 11 }, (_, minute) => localInstant(HK, '2024-01-02', 9, 30 + minute)),
    );
    const again = await startSimHarness({ seed: 7 });
    try {
      again.stepUntil((tick) => tick.symbol === HK && tick.time >= localInstant(HK, '2024-01-02', 9, 40));
      const client = await again.quoteClient();
      expect((await client.capitalFlow(HK)).lines.map((line) => line.inflow.toFixed())).toEqual(
        flow.lines.map((line) => line.inflow.toFixed()),
      );
      const split = await client.capitalDistribution(HK);
      const total = [split.capitalIn, split.capitalOut]
        .flatMap((sizes) => [sizes.large, sizes.medium, sizes.small])
        .reduce((sum, value) => sum + value.toNumber(), 0);
      expect(total).toBeCloseTo(again.sim.replay.marketTime === undefined ? 0 : (await client.quote([HK]))[0]!.turnover.toNumber(), 0);
    } finally {
      await again.close();
    }
  });

  it('answers intraday lines (cmd 18) and recent trades (cmd 17)', async () => {
    await start();
    h.step(8);
    const intraday = messages.intradayResponse.decode(
      await quotes.connection.request(QUOTE_COMMANDS.intraday, messages.intradayRequest.encode({ symbol: HK, tradeSession: 0 })),
    );
    expect(intraday.lines.map((line) => line.timestamp * 1000)).toEqual([
      localInstant(HK, '2024-01-02', 9, 30),
      localInstant(HK, '2024-01-02', 9, 31),
    ]);
    const trades = messages.tradeResponse.decode(
      await quotes.connection.request(QUOTE_COMMANDS.trades, messages.tradeRequest.encode({ symbol: HK, count: 3 })),
    );
    expect(trades.trades).toHaveLength(3);
  });

  it('shares one candlestick subscription between live streams and drops it with the last of them', async () => {
    await start();
    h.stepUntil((tick) => tick.symbol === HK);
    const first = quotes.liveCandlesticks(HK, '1m').subscribe();
    const nextMinute = localInstant(HK, '2024-01-02', 9, 31);
    const second = firstValueFrom(quotes.liveCandlesticks(HK, '1m').pipe(filter((update) => update.candle.time === nextMinute)));
    await until(async () => (await quotes.subscriptions()).some((row) => row.symbol === HK && row.subTypes.includes('trades')));
    first.unsubscribe();
    h.stepUntil((tick) => tick.symbol === HK && tick.time >= nextMinute);
    expect((await second).confirmed).toBe(false);
    await until(async () => (await quotes.subscriptions()).length === 0);
    expect(quotes.realtime.candlePeriods().size).toBe(0);
  });
});
