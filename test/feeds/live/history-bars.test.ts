import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import type { Candle } from '../../../src/domain/candle.js';
import { startOfLocalDay } from '../../../src/domain/time-zone.js';
import { LiveMarketData } from '../../../src/feeds/live/live-market-data.js';
import { HK } from '../../support/socket/quote-fixtures.js';
import { StubQuoteSource } from '../../support/socket/stub-quote-source.js';

const ZONE = 'Asia/Hong_Kong';

function dayBar(date: string, close: number): Candle {
  return { symbol: HK, period: 'day', time: startOfLocalDay(date, ZONE), open: close, high: close, low: close, close, volume: 100 };
}

const BARS = [dayBar('2026-11-16', 1), dayBar('2026-11-17', 2), dayBar('2026-11-18', 3), dayBar('2026-11-19', 4), dayBar('2026-11-20', 5)];

describe('LiveMarketData history', () => {
  it('answers the latest closed bars, leaving out the day still trading', async () => {
    // 2026-11-20 14:00 in Hong Kong: that day's bar is still forming.
    const clock = new VirtualClock(startOfLocalDay('2026-11-20', ZONE) + 14 * 3_600_000);
    const source = new StubQuoteSource();
    source.serviceCandles = BARS;
    const data = new LiveMarketData(source, { clock });

    const history = await data.history(HK, 'day', 3);

    expect(history.map((bar) => bar.close)).toEqual([2, 3, 4]);
    expect(source.candleRequests).toEqual([{ symbol: HK, period: 'day', count: 4 }]);
  });

  it('counts the day closed once its close and the grace for the closing auction have passed', async () => {
    const clock = new VirtualClock(startOfLocalDay('2026-11-20', ZONE) + 16 * 3_600_000 + 15 * 60_000);
    const source = new StubQuoteSource();
    source.serviceCandles = BARS;
    const data = new LiveMarketData(source, { clock });

    expect((await data.history(HK, 'day', 3)).map((bar) => bar.close)).toEqual([3, 4, 5]);
  });
});
