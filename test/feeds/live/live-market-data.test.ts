import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import type { Candle } from '../../../src/domain/candle.js';
import { Money } from '../../../src/domain/money.js';
import { startOfLocalDay } from '../../../src/domain/time-zone.js';
import { LiveMarketData } from '../../../src/feeds/live/live-market-data.js';
import { HK, quoteOf, REPLAY, serviceMinuteBar as bar } from '../../support/socket/quote-fixtures.js';
import { StubQuoteSource } from '../../support/socket/stub-quote-source.js';

const TODAY = Date.UTC(2026, 10, 22, 8);

function setup(): { clock: VirtualClock; source: StubQuoteSource; data: LiveMarketData; bars: Candle[] } {
  const clock = new VirtualClock(TODAY);
  const source = new StubQuoteSource();
  const data = new LiveMarketData(source, { clock });
  const bars: Candle[] = [];
  return { clock, source, data, bars };
}

describe('LiveMarketData candles', () => {
  it('closes a bar when a tick of a later period arrives', async () => {
    const { clock, source, data, bars } = setup();
    data.candles(HK, '1m').subscribe((bar) => bars.push(bar));
    // The service's answer for the bar under way (none here) comes first.
    await clock.advanceByAsync(0);
    source.ticks.next({ ...quoteOf(HK, '10', REPLAY + 1_000, 100), currentVolume: 100, currentTurnover: Money.of(1000, 'HKD') });
    source.ticks.next(quoteOf(HK, '10.5', REPLAY + 30_000, 300));
    expect(bars).toEqual([]);
    source.ticks.next(quoteOf(HK, '10.1', REPLAY + 61_000, 350));
    expect(bars).toEqual([
      { symbol: HK, period: '1m', time: REPLAY, open: 10, high: 10.5, low: 10, close: 10.5, volume: 300, turnover: 3150 },
    ]);
  });

  it('closes a bar on time by the clock, at its end plus the grace in estimated market time', async () => {
    const { clock, source, data, bars } = setup();
    data.candles(HK, '1m').subscribe((bar) => bars.push(bar));
    source.ticks.next(quoteOf(HK, '10', REPLAY + 5_000, 100));
    await clock.advanceByAsync(56_999);
    expect(bars).toEqual([]);
    await clock.advanceByAsync(1);
    expect(bars.map((bar) => bar.time)).toEqual([REPLAY]);
  });

  it('follows a fast replay: bars close on the replay ticks, never early by the client clock', async () => {
    const { clock, source, data, bars } = setup();
    data.candles(HK, '5m').subscribe((bar) => bars.push(bar));
    // One market minute per 10 ms of clock: a 6000x replay.
    for (let minute = 0; minute < 12; minute++) {
      source.ticks.next({ ...quoteOf(HK, String(10 + minute), REPLAY + minute * 60_000, 100 * (minute + 1)), currentVolume: 100 });
      await clock.advanceByAsync(10);
    }
    expect(bars.map((bar) => [bar.time - REPLAY, bar.open, bar.close, bar.volume])).toEqual([
      [0, 10, 14, 500],
      [300_000, 15, 19, 500],
    ]);
    // The last tick (minute 11) came 10 ms of clock ago: the 10-minute bar ends 4 market minutes later.
    await clock.advanceByAsync(900_000 + 2_000 - 660_010 - 1);
    expect(bars).toHaveLength(2);
    await clock.advanceByAsync(1);
    expect(bars.map((bar) => bar.time - REPLAY)).toEqual([0, 300_000, 600_000]);
  });

  it('stamps day bars at local midnight and closes them after the regular close plus the day grace', async () => {
    const { clock, source, data, bars } = setup();
    data.candles(HK, 'day').subscribe((bar) => bars.push(bar));
    const midnight = startOfLocalDay('2000-01-04', 'Asia/Hong_Kong');
    source.ticks.next(quoteOf(HK, '10', midnight + 15 * 3_600_000 + 59 * 60_000, 1000));
    await clock.advanceByAsync(60_000 + 15 * 60_000 - 1);
    expect(bars).toEqual([]);
    await clock.advanceByAsync(1);
    expect(bars).toMatchObject([{ time: midnight, period: 'day', close: 10 }]);
  });

  it('ignores pre- and post-market ticks unless asked for extended hours', async () => {
    const { clock, source, data, bars } = setup();
    data.candles(HK, '1m').subscribe((bar) => bars.push(bar));
    await clock.advanceByAsync(0);
    source.ticks.next({ ...quoteOf(HK, '99', REPLAY, 100), tradeSession: 'post' });
    source.ticks.next(quoteOf(HK, '10', REPLAY + 60_000, 200));
    source.ticks.next(quoteOf(HK, '11', REPLAY + 120_000, 300));
    expect(bars.map((bar) => bar.open)).toEqual([10]);
  });

  it('starts the bar under way from the service, counting once the ticks its answer came after', async () => {
    const { clock, source, data, bars } = setup();
    // Minute 0 traded 400 before the stream subscribed (the open at 10, high 11, low 9).
    source.serviceCandles = [bar(0, 10.4, 400)];
    let release!: () => void;
    source.hold = new Promise((resolve) => (release = resolve));
    data.candles(HK, '1m').subscribe((bar) => bars.push(bar));
    // The subscription's state (its last trade, 50 of the 400) comes before the answer: the 400 count it.
    source.ticks.next({ ...quoteOf(HK, '10.4', REPLAY + 30_000, 1_000), currentVolume: 50 });
    release();
    await clock.advanceByAsync(0);
    expect(source.candleRequests).toEqual([{ symbol: HK, period: '1m', count: 2 }]);
    source.ticks.next({ ...quoteOf(HK, '10.6', REPLAY + 40_000, 1_030), currentVolume: 30 });
    source.ticks.next(quoteOf(HK, '10.5', REPLAY + 61_000, 1_100));
    expect(bars).toMatchObject([{ time: REPLAY, open: 10, high: 11, low: 9, close: 10.6, volume: 430 }]);
  });

  it('fills the gap of a reconnect from the service candles, without duplicates, then resumes with buffered ticks', async () => {
    const { clock, source, data, bars } = setup();
    data.candles(HK, '1m').subscribe((bar) => bars.push(bar));
    await clock.advanceByAsync(0);
    source.ticks.next(quoteOf(HK, '10', REPLAY, 100));
    source.ticks.next(quoteOf(HK, '10.2', REPLAY + 20_000, 150));
    source.states.next({ status: 'reconnecting', attempt: 1, reason: 'dropped', retryInMs: 2_000 });
    await clock.advanceByAsync(200_000);
    expect(bars).toEqual([]);
    // Minute 3 so far: 50, and the 20 of the tick pushed before the answer.
    source.serviceCandles = [bar(0, 10.4, 400), bar(1, 10.5, 500), bar(2, 10.6, 600), bar(3, 10.7, 70)];
    let release!: () => void;
    source.hold = new Promise((resolve) => (release = resolve));
    source.states.next({ status: 'online', reconnected: true });
    source.ticks.next({ ...quoteOf(HK, '10.9', REPLAY + 200_000, 2_000), currentVolume: 20 });
    release();
    await clock.advanceByAsync(0);
    expect(source.candleRequests.at(-1)).toEqual({ symbol: HK, period: '1m', count: 6 });
    expect(bars.map((candle) => [candle.time - REPLAY, candle.close, candle.volume])).toEqual([
      [0, 10.4, 400],
      [60_000, 10.5, 500],
      [120_000, 10.6, 600],
    ]);
    source.ticks.next(quoteOf(HK, '10.8', REPLAY + 240_000, 2_100));
    expect(bars.map((candle) => [candle.time - REPLAY, candle.high, candle.close, candle.volume]).at(-1)).toEqual([180_000, 11, 10.9, 70]);
  });

  it('shares one aggregator among the subscribers of a symbol and period', async () => {
    const { clock, source, data } = setup();
    const first: number[] = [];
    const second: number[] = [];
    data.candles(HK, '1m').subscribe((bar) => first.push(bar.time));
    data.candles(HK, '1m').subscribe((bar) => second.push(bar.time));
    await clock.advanceByAsync(0);
    expect(source.candleRequests).toHaveLength(1);
    source.ticks.next(quoteOf(HK, '10', REPLAY, 100));
    source.ticks.next(quoteOf(HK, '10', REPLAY + 60_000, 200));
    expect(first).toEqual([REPLAY]);
    expect(second).toEqual([REPLAY]);
  });
});
