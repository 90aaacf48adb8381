import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { BacktestMarketData } from '../../src/backtest/market-data.js';
import { resampleProblem } from '../../src/backtest/resample.js';
import type { Candle } from '../../src/domain/candle.js';
import type { Period } from '../../src/domain/period.js';
import { columnsOf } from '../../src/feeds/history/candle-columns.js';
import { parseSymbol } from '../../src/domain/symbol.js';
import { AAPL, dayBar, minuteBar } from '../support/backtest/scripted.js';

/** Pushes one bar into the symbol's feed, as the walk does (from columns). */
function feedBar(data: BacktestMarketData, bar: Candle): void {
  data.feed(bar.symbol).push(columnsOf([bar], { symbol: bar.symbol, period: bar.period, source: 'test' }), 0);
}

/** Feeds `bars` through a fresh market data and collects what `candles(symbol, period)` emits. */
async function collect(dataPeriod: Period, bars: readonly Candle[], period: Period): Promise<Candle[]> {
  const data = new BacktestMarketData(dataPeriod, [AAPL]);
  const emitted = firstValueFrom(data.candles(AAPL, period).pipe(toArray()));
  for (const bar of bars) feedBar(data, bar);
  data.complete();
  return emitted;
}

describe('backtest market data', () => {
  it("streams the data bars as they are fed when the period is the data's", async () => {
    const bars = [dayBar(AAPL, '2024-01-02', 1, 2, 0.5, 1.5), dayBar(AAPL, '2024-01-03', 1.5, 3, 1, 2)];

    expect(await collect('day', bars, 'day')).toEqual(bars);
  });

  it('builds five-minute bars from one-minute bars, emitting each as its last minute closes', async () => {
    const bars = ['09:30', '09:31', '09:32', '09:33', '09:34', '09:35', '09:36'].map((time, index) =>
      minuteBar(AAPL, `2024-01-02 ${time}`, 10 + index, 11 + index, 9 + index, 10.5 + index, '1m', 100 * (index + 1)),
    );
    const data = new BacktestMarketData('1m', [AAPL]);
    const emitted: Candle[] = [];
    data.candles(AAPL, '5m').subscribe((candle) => emitted.push(candle));

    for (const bar of bars.slice(0, 4)) feedBar(data, bar);
    expect(emitted).toEqual([]);
    feedBar(data, bars[4]!);
    expect(emitted).toEqual([{ symbol: AAPL, period: '5m', time: bars[0]!.time, open: 10, high: 15, low: 9, close: 14.5, volume: 1500 }]);
    for (const bar of bars.slice(5)) feedBar(data, bar);
    data.complete();
    // 09:35–09:39 never closed: not emitted.
    expect(emitted).toHaveLength(1);
  });

  it('builds daily bars from hourly bars, closed by the bar ending at the session close', async () => {
    const hours = ['09:30', '10:30', '11:30', '12:30', '13:30', '14:30', '15:30'];
    const day1 = hours.map((time, index) =>
      minuteBar(AAPL, `2024-01-02 ${time}`, 100 + index, 101 + index, 99 + index, 100.5 + index, '60m', 10),
    );
    const day2 = hours.slice(0, 2).map((time) => minuteBar(AAPL, `2024-01-03 ${time}`, 200, 201, 199, 200.5, '60m', 10));

    const days = await collect('60m', [...day1, ...day2], 'day');

    expect(days).toEqual([
      {
        symbol: AAPL,
        period: 'day',
        time: dayBar(AAPL, '2024-01-02', 0, 0, 0, 0).time,
        open: 100,
        high: 107,
        low: 99,
        close: 106.5,
        volume: 70,
      },
    ]);
  });

  it('builds monthly bars from daily bars', async () => {
    const bars = [
      dayBar(AAPL, '2024-01-30', 10, 12, 9, 11),
      dayBar(AAPL, '2024-01-31', 11, 13, 10, 12),
      dayBar(AAPL, '2024-02-01', 12, 14, 11, 13),
    ];

    const months = await collect('day', bars, 'month');

    // January closes with its last day's bar; February is still open when the data ends.
    expect(months).toEqual([
      {
        symbol: AAPL,
        period: 'month',
        time: dayBar(AAPL, '2024-01-01', 0, 0, 0, 0).time,
        open: 10,
        high: 13,
        low: 9,
        close: 12,
        volume: 2_000_000,
      },
    ]);
  });

  it("emits a week bar with its Friday's bar, as a live run has it before Monday opens; after a Friday holiday, with Monday's", () => {
    const data = new BacktestMarketData('day', [AAPL]);
    const weeks: Candle[] = [];
    data.candles(AAPL, 'week').subscribe((week) => weeks.push(week));
    const days = ['2024-03-04', '2024-03-05', '2024-03-06', '2024-03-07', '2024-03-08'].map((date, index) =>
      dayBar(AAPL, date, 10 + index, 11 + index, 9 + index, 10.5 + index),
    );

    for (const day of days.slice(0, 4)) feedBar(data, day);
    expect(weeks).toEqual([]);
    feedBar(data, days[4]!);
    expect(weeks).toMatchObject([{ time: dayBar(AAPL, '2024-03-04', 0, 0, 0, 0).time, open: 10, high: 15, low: 9, close: 14.5 }]);

    // Good Friday 2024-03-29: the week ends with Thursday's bar in the data, and is emitted with Monday's.
    for (const date of ['2024-03-25', '2024-03-26', '2024-03-27', '2024-03-28']) feedBar(data, dayBar(AAPL, date, 20, 21, 19, 20));
    expect(weeks).toHaveLength(1);
    feedBar(data, dayBar(AAPL, '2024-04-01', 30, 31, 29, 30));
    expect(weeks).toHaveLength(2);
    expect(weeks[1]).toMatchObject({ time: dayBar(AAPL, '2024-03-25', 0, 0, 0, 0).time, close: 20 });
  });

  it("builds a week bar from hour bars with every Friday bar in it, emitted with the next week's first bar", () => {
    const data = new BacktestMarketData('60m', [AAPL]);
    const weeks: Candle[] = [];
    data.candles(AAPL, 'week').subscribe((week) => weeks.push(week));
    const hours = ['09:30', '10:30', '11:30', '12:30', '13:30', '14:30', '15:30'];
    for (const [index, hour] of hours.entries()) feedBar(data, minuteBar(AAPL, `2024-03-08 ${hour}`, 10, 11 + index, 9, 10.5, '60m', 100));
    expect(weeks).toEqual([]);
    feedBar(data, minuteBar(AAPL, '2024-03-11 09:30', 20, 21, 19, 20, '60m', 100));
    expect(weeks).toMatchObject([{ time: dayBar(AAPL, '2024-03-04', 0, 0, 0, 0).time, high: 17, volume: 700 }]);
  });

  it('errors the stream, naming the problem, for a period finer than the data or a symbol without data', async () => {
    const data = new BacktestMarketData('day', [AAPL]);

    await expect(firstValueFrom(data.candles(AAPL, '5m'))).rejects.toThrow("AAPL.US: 5m bars are finer than the data's day bars");
    await expect(firstValueFrom(data.candles(parseSymbol('MSFT.US'), 'day'))).rejects.toThrow(
      'no candle data for MSFT.US in this backtest (it has AAPL.US)',
    );
  });

  it('knows which periods can be built from which', () => {
    expect(resampleProblem('1m', '15m')).toBeUndefined();
    expect(resampleProblem('1m', 'day')).toBeUndefined();
    expect(resampleProblem('day', 'quarter')).toBeUndefined();
    expect(resampleProblem('2m', '5m')).toBe("5m is not a multiple of the data's 2m bars");
    expect(resampleProblem('week', 'month')).toBe('month bars cannot be built from week bars (weeks straddle months)');
    expect(resampleProblem('day', '60m')).toBe("60m bars are finer than the data's day bars");
  });

  it('has no quotes in a backtest: quote streams complete when the data ends, without a value', async () => {
    const data = new BacktestMarketData('day', [AAPL]);
    const quotes = firstValueFrom(data.quotes(AAPL).pipe(toArray()));

    data.complete();

    expect(await quotes).toEqual([]);
  });
});
