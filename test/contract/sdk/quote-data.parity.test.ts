// The SDK's quote questions and ours, asked of one simulator at one market time: profile, static info, quotes,
// depth and broker queues, participants, trades, intraday lines, candlesticks and history, sessions and days,
// capital flow and distribution, calc indexes, the security list and market temperature.
import { NaiveDate, NaiveDatetime, Time } from 'longport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Fixed } from '../../../src/domain/fixed.js';
import type { Candle } from '../../../src/domain/candle.js';
import { CALC_INDEXES } from '../../../src/openapi/socket/reference-enums.js';
import { HK, localInstant, minuteCandles, US } from '../../support/sim/candles.js';
import { SDK_INTRADAY, SDK_MARKET, SDK_NO_ADJUST, SDK_PERIOD, sdkCalcIndex } from '../../support/sdk-enums.js';
import { dec, ms, sdkJson, startParity, type ParityHarness } from './parity-harness.js';
import { SDK_CALLS } from './sdk-calls.js';

type Row = Record<string, unknown>;
const DATES = ['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05', '2024-01-08', '2024-01-09', '2024-01-10', '2024-01-11'];
const TRADE_STATUS = ['Normal'];
const SESSION_NAMES = { normal: 'Intraday', pre: 'Pre', post: 'Post', overnight: 'Overnight' } as const;

let h: ParityHarness;

beforeAll(async () => {
  h = await startParity({ candles: [minuteCandles(HK, DATES), minuteCandles(US, DATES)] });
  h.stepUntil((tick) => tick.symbol === HK && tick.time >= localInstant(HK, '2024-01-10', 9, 45));
  h.stepUntil((tick) => tick.symbol === US && tick.time >= localInstant(US, '2024-01-10', 9, 45));
});

afterAll(async () => {
  expect(SDK_CALLS['quote-data'].filter((call) => !h.called.has(call))).toEqual([]);
  await h.close();
});

const candle = (row: Row) => ({
  time: ms(row['timestamp']),
  open: dec(row['open']),
  high: dec(row['high']),
  low: dec(row['low']),
  close: dec(row['close']),
  volume: row['volume'],
  turnover: dec(row['turnover']),
});
const ourCandle = (bar: Candle) => ({
  time: bar.time,
  open: Fixed.of(bar.open).toFixed(),
  high: Fixed.of(bar.high).toFixed(),
  low: Fixed.of(bar.low).toFixed(),
  close: Fixed.of(bar.close).toFixed(),
  volume: bar.volume,
  turnover: Fixed.of(bar.turnover ?? 0).toFixed(),
});

describe('the SDK and our client read the same quote data', () => {
  it('profile: member id, quote level and quote packages', async () => {
    expect([h.quotes.memberId, h.quotes.quoteLevel]).toEqual([h.sdkQuote.memberId(), h.sdkQuote.quoteLevel()]);
    const sdk = sdkJson<Row[]>(h.sdkQuote.quotePackageDetails()).map((row) => [
      row['key'],
      row['name'],
      ms(row['startAt']),
      ms(row['endAt']),
    ]);
    const ours = h.quotes.quotePackages().map((row) => [row.key, row.name, row.startAt, row.endAt]);
    expect(ours.sort()).toEqual(sdk.sort());
    expect(ours.map((row) => row[0]).sort()).toEqual(['SIM_HK_LV1', 'SIM_US_LV1']);
  });

  it('static info', async () => {
    const sdk = sdkJson<Row[]>(await h.sdkQuote.staticInfo([HK, US]));
    const ours = await h.quotes.staticInfo([HK, US]);
    const shape = (row: Row) => [
      row['symbol'],
      row['nameEn'],
      row['lotSize'],
      row['totalShares'],
      dec(row['epsTtm']),
      dec(row['bps']),
      row['board'],
    ];
    expect(ours.map((row) => shape({ ...row, epsTtm: row.epsTtm.toFixed(), bps: row.bps.toFixed() }))).toEqual(sdk.map(shape));
    expect(sdk.map((row) => row['stockDerivatives'])).toEqual([['Option', 'Warrant'], ['Option']]);
    expect(ours.map((row) => row.stockDerivatives)).toEqual([[1, 2], [1]]);
  });

  it('quotes', async () => {
    const sdk = sdkJson<Row[]>(await h.sdkQuote.quote([HK, US]));
    const ours = await h.quotes.quote([HK, US]);
    const shape = (row: Row) =>
      ['symbol', 'lastDone', 'prevClose', 'open', 'high', 'low', 'turnover'].map((key) => (key === 'symbol' ? row[key] : dec(row[key])));
    expect(ours.map((row) => [...shape(row as unknown as Row), row.volume, row.timestamp, TRADE_STATUS[row.tradeStatus]])).toEqual(
      sdk.map((row) => [...shape(row), row['volume'], ms(row['timestamp']), row['tradeStatus']]),
    );
    expect(ours).toHaveLength(2);
  });

  it('depth and broker queues', async () => {
    const sdkDepth = sdkJson<{ asks: Row[]; bids: Row[] }>(await h.sdkQuote.depth(HK));
    const ourDepth = await h.quotes.depthSnapshot(HK);
    const level = (row: Row) => [row['position'], dec(row['price']), row['volume'], row['orderNum'] ?? row['orderCount']];
    expect(ourDepth.asks.map((row) => level(row as unknown as Row))).toEqual(sdkDepth.asks.map(level));
    expect(ourDepth.bids.map((row) => level(row as unknown as Row))).toEqual(sdkDepth.bids.map(level));
    const sdkBrokers = sdkJson<{ askBrokers: Row[]; bidBrokers: Row[] }>(await h.sdkQuote.brokers(HK));
    const ourBrokers = await h.quotes.brokersSnapshot(HK);
    expect([ourBrokers.askBrokers, ourBrokers.bidBrokers]).toEqual([sdkBrokers.askBrokers, sdkBrokers.bidBrokers]);
    expect(ourBrokers.askBrokers).toHaveLength(5);
    expect((await h.quotes.brokersSnapshot(US)).askBrokers).toEqual([]);
  });

  it('participants', async () => {
    const sdk = sdkJson<Row[]>(await h.sdkQuote.participants());
    const ours = await h.quotes.participants();
    expect(ours).toEqual(sdk);
    expect(ours.length).toBe(30);
  });

  it('recent trades and intraday lines', async () => {
    const sdkTrades = sdkJson<Row[]>(await h.sdkQuote.trades(HK, 5));
    const ourTrades = await h.quotes.recentTrades(HK, 5);
    const trade = (row: Row) => [dec(row['price']), row['volume'], ms(row['timestamp']), row['tradeType'], row['direction']];
    expect(ourTrades.map((row) => trade(row as unknown as Row))).toEqual(
      sdkTrades.map((row) => [...trade(row).slice(0, 4), ['Neutral', 'Down', 'Up'].indexOf(row['direction'] as string)]),
    );
    expect(ourTrades).toHaveLength(5);
    const sdkLines = sdkJson<Row[]>(await h.sdkQuote.intraday(HK, SDK_INTRADAY));
    const ourLines = await h.quotes.intraday(HK);
    const line = (row: Row) => [dec(row['price']), ms(row['timestamp']), row['volume'], dec(row['turnover']), dec(row['avgPrice'])];
    expect(ourLines.map((row) => line(row as unknown as Row))).toEqual(sdkLines.map(line));
    expect(ourLines.length).toBe(30);
  });

  it('candlesticks, by count, by offset and by date', async () => {
    const latest = [
      sdkJson<Row[]>(await h.sdkQuote.candlesticks(HK, SDK_PERIOD.FiveMinutes, 10, SDK_NO_ADJUST, SDK_INTRADAY)),
      await h.quotes.candlesticks(HK, '5m', 10),
    ] as const;
    expect(latest[1].map(ourCandle)).toEqual(latest[0].map(candle));
    expect(latest[1]).toHaveLength(10);
    const anchor = new NaiveDatetime(new NaiveDate(2024, 1, 9), new Time(9, 40, 0));
    const sdkOffset = sdkJson<Row[]>(
      await h.sdkQuote.historyCandlesticksByOffset(HK, SDK_PERIOD.OneMinute, SDK_NO_ADJUST, false, anchor, 7, SDK_INTRADAY),
    );
    const ourOffset = await h.quotes.historyByOffset(HK, '1m', { direction: 'backward', date: '2024-01-09', minute: '0940', count: 7 });
    expect(ourOffset.map(ourCandle)).toEqual(sdkOffset.map(candle));
    expect(ourOffset.at(-1)?.time).toBe(localInstant(HK, '2024-01-09', 9, 40));
    const sdkDays = sdkJson<Row[]>(
      await h.sdkQuote.historyCandlesticksByDate(
        HK,
        SDK_PERIOD.Day,
        SDK_NO_ADJUST,
        new NaiveDate(2024, 1, 3),
        new NaiveDate(2024, 1, 9),
        SDK_INTRADAY,
      ),
    );
    const ourDays = await h.quotes.historyByDate(HK, 'day', '2024-01-03', '2024-01-09');
    expect(ourDays.map(ourCandle)).toEqual(sdkDays.map(candle));
    expect(ourDays).toHaveLength(5);
  });

  it('trading sessions and trading days', async () => {
    const sdkSessions = sdkJson<Row[]>(await h.sdkQuote.tradingSession());
    const ourSessions = await h.quotes.tradingSessions();
    const hhmm = (time: unknown): number => {
      const [hour, minute] = String(time).split(':').map(Number) as [number, number];
      return hour * 100 + minute;
    };
    expect(ourSessions.map((market) => [market.market, market.sessions.map((s) => [s.begin, s.end, SESSION_NAMES[s.session]])])).toEqual(
      sdkSessions.map((market) => [
        market['market'],
        (market['tradeSessions'] as Row[]).map((s) => [hhmm(s['beginTime']), hhmm(s['endTime']), s['tradeSession']]),
      ]),
    );
    const sdkDays = sdkJson<Row>(await h.sdkQuote.tradingDays(SDK_MARKET.HK, new NaiveDate(2024, 1, 1), new NaiveDate(2024, 1, 14)));
    const ourDays = await h.quotes.tradingDays('HK', '2024-01-01', '2024-01-14');
    expect([ourDays.tradingDays, ourDays.halfTradingDays]).toEqual([sdkDays['tradingDays'], sdkDays['halfTradingDays']]);
    expect(ourDays.tradingDays).toContain('2024-01-11');
  });

  it('capital flow and distribution', async () => {
    const sdkFlow = sdkJson<Row[]>(await h.sdkQuote.capitalFlow(HK));
    const ourFlow = await h.quotes.capitalFlow(HK);
    expect(ourFlow.lines.map((line) => [dec(line.inflow), line.timestamp])).toEqual(
      sdkFlow.map((line) => [dec(line['inflow']), ms(line['timestamp'])]),
    );
    expect(ourFlow.lines.length).toBeGreaterThan(10);
    const sdk = sdkJson<{ timestamp: string; capitalIn: Row; capitalOut: Row }>(await h.sdkQuote.capitalDistribution(HK));
    const ours = await h.quotes.capitalDistribution(HK);
    const sizes = (row: Row) => ['large', 'medium', 'small'].map((size) => dec(row[size]));
    expect([ours.timestamp, sizes(ours.capitalIn as unknown as Row), sizes(ours.capitalOut as unknown as Row)]).toEqual([
      ms(sdk.timestamp),
      sizes(sdk.capitalIn),
      sizes(sdk.capitalOut),
    ]);
  });

  it('calc indexes: every index the SDK names, of a stock, an option and a warrant', async () => {
    const [strike] = await h.quotes.optionChainStrikes(US, (await h.quotes.optionChainDates(US))[0]!);
    const symbols = [HK, US, strike!.callSymbol, '20000.HK', '60004.HK'];
    const sdk = sdkJson<Row[]>(
      await h.sdkQuote.calcIndexes(
        symbols,
        CALC_INDEXES.map((_, position) => sdkCalcIndex(position)),
      ),
    );
    const ours = await h.quotes.calcIndexes(symbols, CALC_INDEXES);
    const sdkName = (index: string): string => ({ changeVal: 'changeValue' })[index] ?? index;
    const value = (raw: unknown): unknown =>
      typeof raw === 'number' || raw === null || /^\d{4}-\d{2}-\d{2}$/.test(String(raw)) ? raw : dec(raw);
    expect(ours.map((row) => CALC_INDEXES.map((index) => value((row as Row)[index] ?? null)))).toEqual(
      sdk.map((row) => CALC_INDEXES.map((index) => value(row[sdkName(index)] ?? null))),
    );
    const [stock, , option, warrant] = ours;
    expect([stock?.fiveDayChangeRate, stock?.peTtmRatio, stock?.tenDayChangeRate]).toEqual([
      expect.anything(),
      expect.anything(),
      undefined,
    ]);
    expect([option?.delta, option?.openInterest, warrant?.conversionRatio?.toFixed()]).toEqual([
      expect.anything(),
      expect.any(Number),
      '10',
    ]);
  });

  it('the security list', async () => {
    const sdk = sdkJson<Row[]>(await h.sdkQuote.securityList(SDK_MARKET.US, 0 as never));
    const ours = await h.quotes.staticInfo([US]).then(() => h.http.securities({ market: 'US' }));
    expect(ours.map((row) => [row.symbol, row.nameEn])).toEqual(sdk.map((row) => [row['symbol'], row['nameEn']]));
    expect(ours).toHaveLength(1);
  });

  it('market temperature now and by day', async () => {
    const sdk = sdkJson<Row>(await h.sdkQuote.marketTemperature(SDK_MARKET.HK));
    const ours = await h.http.marketTemperature('HK');
    expect([ours.temperature, ours.description, ours.valuation, ours.sentiment, ours.updatedAt]).toEqual([
      sdk['temperature'],
      sdk['description'],
      sdk['valuation'],
      sdk['sentiment'],
      ms(sdk['timestamp']),
    ]);
    const sdkHistory = sdkJson<{ granularity: string; records: Row[] }>(
      await h.sdkQuote.historyMarketTemperature(SDK_MARKET.US, new NaiveDate(2024, 1, 1), new NaiveDate(2024, 2, 1)),
    );
    const ourHistory = await h.http.historyMarketTemperature('US', '2024-01-01', '2024-02-01');
    expect([ourHistory.granularity, ourHistory.records.map((row) => [row.time, row.temperature, row.valuation, row.sentiment])]).toEqual([
      sdkHistory.granularity.toLowerCase(),
      sdkHistory.records.map((row) => [ms(row['timestamp']), row['temperature'], row['valuation'], row['sentiment']]),
    ]);
    expect(ourHistory.records.length).toBe(8);
  });
});
