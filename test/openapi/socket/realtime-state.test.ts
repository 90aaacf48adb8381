// The local realtime state as an RxJS state: pushes merge as the SDK merges them, every change is a new immutable
// snapshot, and one symbol can be selected.
import { firstValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Money } from '../../../src/domain/money.js';
import { Price } from '../../../src/domain/price.js';
import type { Quote, Trades } from '../../../src/domain/quote.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { CandleSeries } from '../../../src/openapi/socket/live-candles.js';
import { RealtimeState } from '../../../src/openapi/socket/realtime-state.js';

const HK = parseSymbol('700.HK');
const US = parseSymbol('AAPL.US');
const d = (text: string) => Price.of(text);
const m = (text: string) => Money.of(text, 'HKD');

const quote = (fields: Partial<Quote> = {}): Quote => ({
  symbol: HK,
  sequence: 1,
  lastDone: d('300'),
  open: d('299'),
  high: d('301'),
  low: d('298'),
  timestamp: Date.parse('2024-01-02T01:31:00Z'),
  volume: 1000,
  turnover: m('300000'),
  tradeStatus: 0,
  tradeSession: 'normal',
  currentVolume: 10,
  currentTurnover: m('3000'),
  ...fields,
});

const trades = (count: number, first = 0): Trades => ({
  symbol: HK,
  sequence: 1,
  trades: Array.from({ length: count }, (_, index) => ({
    price: d('300'),
    volume: first + index,
    timestamp: Date.parse('2024-01-02T01:31:00Z') + index,
    tradeType: '',
    direction: 0,
    tradeSession: 'normal' as const,
  })),
});

describe('the realtime state', () => {
  it('keeps the last value of a quote field pushed as zero', () => {
    const state = new RealtimeState();
    state.applyQuote(quote());
    const merged = state.applyQuote(quote({ lastDone: d('302'), high: d('0'), volume: 0, turnover: m('0') }));
    expect([merged.lastDone, merged.high, merged.volume, merged.turnover].map(String)).toEqual(['302', '301', '1000', '300000']);
    expect(state.quote([HK, US]).map((row) => row.lastDone.toFixed())).toEqual(['302']);
  });

  it('replaces depth and broker levels by position', () => {
    const state = new RealtimeState();
    const level = (position: number, price: string) => ({ position, price: d(price), volume: 100, orderCount: 1 });
    state.applyDepth({ symbol: HK, sequence: 1, asks: [level(1, '301'), level(2, '302')], bids: [level(1, '300')] });
    state.applyDepth({ symbol: HK, sequence: 2, asks: [level(2, '303'), level(3, '304')], bids: [] });
    expect(state.depth(HK).asks.map((row) => row.price.toFixed())).toEqual(['301', '303', '304']);
    expect(state.depth(HK).bids).toHaveLength(1);
    state.applyBrokers({
      symbol: HK,
      sequence: 1,
      askBrokers: [{ position: 1, brokerIds: [1] }],
      bidBrokers: [{ position: 2, brokerIds: [2] }],
    });
    state.applyBrokers({ symbol: HK, sequence: 2, askBrokers: [{ position: 1, brokerIds: [3, 4] }], bidBrokers: [] });
    expect(state.brokers(HK)).toEqual({ askBrokers: [{ position: 1, brokerIds: [3, 4] }], bidBrokers: [{ position: 2, brokerIds: [2] }] });
    expect(state.depth(US)).toEqual({ asks: [], bids: [] });
  });

  it('appends trades and drops the oldest 500 once past 1000', () => {
    const state = new RealtimeState();
    state.applyTrades(trades(999));
    state.applyTrades(trades(2, 999));
    expect(state.trades(HK, 2000).map((trade) => trade.volume)).toEqual(Array.from({ length: 501 }, (_, index) => 500 + index));
    expect(state.trades(HK, 3).map((trade) => trade.volume)).toEqual([998, 999, 1000]);
  });

  it('publishes an immutable snapshot per change, and one symbol on its own changes only', async () => {
    const state = new RealtimeState();
    const snapshots = firstValueFrom(state.state$.pipe(take(3), toArray()));
    const selected = firstValueFrom(state.select(US).pipe(take(2), toArray()));
    state.applyQuote(quote());
    state.applyQuote(quote({ symbol: US, lastDone: d('190') }));
    const [empty, first, second] = await snapshots;
    expect([empty!.size, first!.size, second!.size]).toEqual([0, 1, 2]);
    expect(first!.get(HK)).toBe(second!.get(HK));
    expect((await selected).map((row) => row?.quote?.lastDone.toFixed())).toEqual([undefined, '190']);
  });

  it('grows candle series from trades and publishes their updates after the state', async () => {
    const state = new RealtimeState();
    const bar = {
      symbol: HK,
      period: '1m' as const,
      time: Date.parse('2024-01-02T01:30:00Z'),
      open: 300,
      high: 300,
      low: 300,
      close: 300,
      volume: 5,
    };
    state.addSeries(new CandleSeries(HK, 'HK', '1m', 'HKEquity', false, [{ candle: bar, session: 'normal' }]));
    const updates = firstValueFrom(state.candlesticks$.pipe(take(2), toArray()));
    let seen: number | undefined;
    state.candlesticks$.pipe(take(1)).subscribe(() => (seen = state.candlesticks(HK, '1m', 10).length));
    state.applyTrades(trades(1));
    expect((await updates).map((update) => [update.confirmed, update.candle.time])).toEqual([
      [true, bar.time],
      [false, Date.parse('2024-01-02T01:31:00Z')],
    ]);
    expect(seen).toBe(2);
    expect(state.removeSeries(HK, '1m')).toBe(true);
    expect([state.candlesticks(HK, '1m', 10), state.candlePeriods().size]).toEqual([[], 0]);
  });
});
