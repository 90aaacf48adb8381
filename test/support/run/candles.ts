// Daily bars for run tests: closes that swing up and down (so a short SMA crossover trades several times),
// stamped on consecutive weekdays from 2024-01-02, each bar opening at the previous close.
import type { Candle } from '../../../src/domain/candle.js';
import { parseSymbol, type SecuritySymbol } from '../../../src/domain/symbol.js';
import { dayBar } from '../backtest/scripted.js';

export const AAPL = parseSymbol('AAPL.US');

/** `count` bars whose closes follow a wave of period 16 bars around 100, rounded to cents. */
export function wavingDays(count: number, symbol: SecuritySymbol = AAPL): Candle[] {
  const bars: Candle[] = [];
  const day = new Date(Date.UTC(2024, 0, 2));
  let previous = 100;
  while (bars.length < count) {
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) {
      const index = bars.length;
      const close = Math.round((100 + 8 * Math.sin((index * Math.PI) / 8) + index * 0.05) * 100) / 100;
      bars.push(
        dayBar(
          symbol,
          day.toISOString().slice(0, 10),
          previous,
          Math.max(previous, close) + 0.5,
          Math.min(previous, close) - 0.5,
          close,
          100_000,
        ),
      );
      previous = close;
    }
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return bars;
}
