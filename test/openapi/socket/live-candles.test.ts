// Live candles as the official SDK builds them (its rules, written out as cases): which bar a trade belongs to,
// what a trade of each type may move, bars carried over from the previous close, day bars from quotes.
import { describe, expect, it } from 'vitest';
import type { Candle } from '../../../src/domain/candle.js';
import { Money } from '../../../src/domain/money.js';
import { Price } from '../../../src/domain/price.js';
import type { MarketTrade, Quote } from '../../../src/domain/quote.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { candleTime } from '../../../src/openapi/socket/candle-sessions.js';
import { CandleSeries } from '../../../src/openapi/socket/live-candles.js';

const HK = parseSymbol('700.HK');
const US = parseSymbol('AAPL.US');
const hk = (time: string): number => Date.parse(`${time}+08:00`);
const ny = (time: string): number => Date.parse(`${time}-05:00`);

const trade = (time: number, price: string, volume: number, tradeType = ''): MarketTrade => ({
  price: Price.of(price),
  volume,
  timestamp: time,
  tradeType,
  direction: 0,
  tradeSession: 'normal',
});

const bar = (time: number, close: number): Candle => ({
  symbol: HK,
  period: '1m',
  time,
  open: close,
  high: close,
  low: close,
  close,
  volume: 100,
  turnover: close * 100,
});
const shape = (candle: Candle) => [
  new Date(candle.time).toISOString(),
  candle.open,
  candle.high,
  candle.low,
  candle.close,
  candle.volume,
  candle.turnover,
];

describe('the candle a trade belongs to', () => {
  it('counts minute bars from the session start and keeps the lunch break out', () => {
    expect(candleTime('HK', 'normal', false, '1m', hk('2024-01-02T09:30:59'))).toBe(hk('2024-01-02T09:30:00'));
    expect(candleTime('HK', 'normal', false, '5m', hk('2024-01-02T09:34:59'))).toBe(hk('2024-01-02T09:30:00'));
    expect(candleTime('HK', 'normal', false, '60m', hk('2024-01-02T13:59:00'))).toBe(hk('2024-01-02T13:00:00'));
    expect(candleTime('HK', 'normal', false, '1m', hk('2024-01-02T11:59:59'))).toBe(hk('2024-01-02T11:59:00'));
    expect(candleTime('HK', 'normal', false, '1m', hk('2024-01-02T12:30:00'))).toBeUndefined();
    expect(candleTime('HK', 'normal', false, '1m', hk('2024-01-02T09:29:59'))).toBeUndefined();
  });

  it("puts HK's closing auction (up to ten minutes after 16:00) in the 16:00 bar, and nothing later", () => {
    expect(candleTime('HK', 'normal', false, '1m', hk('2024-01-02T16:08:00'))).toBe(hk('2024-01-02T16:00:00'));
    expect(candleTime('HK', 'normal', false, '1m', hk('2024-01-02T16:10:00'))).toBeUndefined();
    expect(candleTime('HK', 'normal', true, '1m', hk('2024-01-02T12:05:00'))).toBe(hk('2024-01-02T12:00:00'));
  });

  it('dates calendar bars at local midnight of the day, the Monday, the first of the month, quarter and year', () => {
    const friday = ny('2024-05-17T10:00:00');
    expect(candleTime('US', 'normal', false, 'day', friday)).toBe(Date.parse('2024-05-17T00:00:00-04:00'));
    expect(candleTime('US', 'normal', false, 'week', friday)).toBe(Date.parse('2024-05-13T00:00:00-04:00'));
    expect(candleTime('US', 'normal', false, 'month', friday)).toBe(Date.parse('2024-05-01T00:00:00-04:00'));
    expect(candleTime('US', 'normal', false, 'quarter', friday)).toBe(Date.parse('2024-04-01T00:00:00-04:00'));
    expect(candleTime('US', 'normal', false, 'year', friday)).toBe(ny('2024-01-01T00:00:00'));
  });

  it('builds US pre-market minutes only for intraday periods', () => {
    expect(candleTime('US', 'pre', false, '1m', ny('2024-01-02T08:15:30'))).toBe(ny('2024-01-02T08:15:00'));
    expect(candleTime('US', 'pre', false, 'day', ny('2024-01-02T08:15:30'))).toBeUndefined();
    expect(candleTime('HK', 'pre', false, '1m', hk('2024-01-02T09:15:00'))).toBeUndefined();
  });
});

describe('a live minute series', () => {
  it('updates the last bar within its minute, then starts the next and confirms the last', () => {
    const series = new CandleSeries(HK, 'HK', '1m', 'HKEquity', false, [
      { candle: bar(hk('2024-01-02T09:30:00'), 300), session: 'normal' },
    ]);
    const updates = [
      ...series.mergeTrade(trade(hk('2024-01-02T09:30:40'), '301', 200), false),
      ...series.mergeTrade(trade(hk('2024-01-02T09:31:05'), '299', 50), false),
    ];
    expect(updates.map((update) => [update.confirmed, ...shape(update.candle)])).toEqual([
      [false, '2024-01-02T01:30:00.000Z', 300, 301, 300, 301, 300, 90_200],
      [true, '2024-01-02T01:30:00.000Z', 300, 301, 300, 301, 300, 90_200],
      [false, '2024-01-02T01:31:00.000Z', 299, 299, 299, 299, 50, 14_950],
    ]);
    expect(series.candlesticks).toHaveLength(2);
  });

  it('lets an HK odd-lot trade (type D) add volume only, and opens a bar it starts at the previous close', () => {
    const series = new CandleSeries(HK, 'HK', '1m', 'HKEquity', false, [
      { candle: bar(hk('2024-01-02T09:30:00'), 300), session: 'normal' },
    ]);
    series.mergeTrade(trade(hk('2024-01-02T09:31:10'), '305', 7, 'D'), false);
    expect(shape(series.candlesticks.at(-1)!)).toEqual(['2024-01-02T01:31:00.000Z', 300, 300, 300, 300, 7, 2135]);
    series.mergeTrade(trade(hk('2024-01-02T09:31:20'), '301', 10), false);
    expect(shape(series.candlesticks.at(-1)!)).toEqual(['2024-01-02T01:31:00.000Z', 301, 301, 300, 301, 17, 5145]);
  });

  it('lets trades of unknown types move nothing, and ignores trades outside the sessions or older than the last bar', () => {
    const series = new CandleSeries(HK, 'HK', '1m', 'HKEquity', false, [
      { candle: bar(hk('2024-01-02T09:35:00'), 300), session: 'normal' },
    ]);
    expect(series.mergeTrade(trade(hk('2024-01-02T09:35:10'), '310', 10, 'Z'), false).map((update) => shape(update.candle))).toEqual([
      shape(bar(hk('2024-01-02T09:35:00'), 300)),
    ]);
    expect(series.mergeTrade(trade(hk('2024-01-02T08:00:00'), '310', 10), false)).toEqual([]);
    expect(series.mergeTrade(trade(hk('2024-01-02T09:34:00'), '310', 10), false)).toEqual([]);
    expect(series.candlesticks.map(shape)).toEqual([shape(bar(hk('2024-01-02T09:35:00'), 300))]);
  });

  it('keeps the pre-market bars of a series of all sessions apart from the regular ones, and pushes them only there', () => {
    const regular = new CandleSeries(US, 'US', '1m', 'USMain', false, []);
    const all = new CandleSeries(US, 'US', '1m', 'USMain', true, []);
    const early = { ...trade(ny('2024-01-02T08:00:10'), '190', 5), tradeSession: 'pre' as const };
    expect(regular.mergeTrade(early, false)).toEqual([]);
    expect(all.mergeTrade(early, false).map((update) => update.candle.close)).toEqual([190]);
    all.mergeTrade(trade(ny('2024-01-02T09:30:01'), '191', 5), false);
    expect(all.candlesticks.map((candle) => candle.close)).toEqual([190, 191]);
  });
});

describe('a live day series', () => {
  const quote = (time: number, last: string, volume: number): Quote => ({
    symbol: HK,
    sequence: 1,
    lastDone: Price.of(last),
    open: Price.of('300'),
    high: Price.of('305'),
    low: Price.of('299'),
    timestamp: time,
    volume,
    turnover: Money.of(volume * 300, 'HKD'),
    tradeStatus: 0,
    tradeSession: 'normal',
    currentVolume: 0,
    currentTurnover: Money.of(0, 'HKD'),
  });

  it("takes the day's figures from quotes, not from trades", () => {
    const series = new CandleSeries(HK, 'HK', 'day', 'HKEquity', false, []);
    expect(series.mergeTrade(trade(hk('2024-01-02T10:00:00'), '301', 100), false)).toEqual([]);
    series.mergeQuote(quote(hk('2024-01-02T10:00:00'), '302', 1000), false);
    const [first] = series.mergeQuote(quote(hk('2024-01-02T10:05:00'), '303', 1500), false);
    expect(shape(first!.candle)).toEqual(['2024-01-01T16:00:00.000Z', 300, 305, 299, 303, 1500, 450_000]);
    const next = series.mergeQuote(quote(hk('2024-01-03T09:30:00'), '304', 10), false);
    expect(next.map((update) => [update.confirmed, update.candle.close])).toEqual([
      [true, 303],
      [false, 304],
    ]);
  });

  it('builds every bar of an index from quotes', () => {
    const series = new CandleSeries(parseSymbol('HSI.HK'), 'HK', '1m', 'HKHS', false, []);
    expect(series.mergeTrade(trade(hk('2024-01-02T10:00:00'), '16000', 1), false)).toEqual([]);
    expect(
      series.mergeQuote({ ...quote(hk('2024-01-02T10:00:30'), '16001', 0), currentVolume: 3 }, false).map((update) => update.candle.close),
    ).toEqual([16001]);
  });
});
