// A seeded random walk of daily bars (moves of up to ±3 % a day, cents), stamped on consecutive weekdays
// from 2024-01-02: history for tests that compare runs over the same bars.
import type { Candle } from '../../../src/domain/candle.js';
import type { SecuritySymbol } from '../../../src/domain/symbol.js';
import { dayBar } from '../market-bars.js';

export function randomWalk(symbol: SecuritySymbol, seed: number, count: number): Candle[] {
  let state = seed;
  let price = 100;
  const bars: Candle[] = [];
  const day = new Date(Date.UTC(2024, 0, 2));
  while (bars.length < count) {
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      const open = price;
      price = Math.max(1, Math.round(price * (1 + (state / 2_147_483_648 - 0.5) * 0.06) * 100) / 100);
      bars.push(dayBar(symbol, day.toISOString().slice(0, 10), open, Math.max(open, price) + 0.4, Math.min(open, price) - 0.4, price));
    }
    day.setUTCDate(day.getUTCDate() + 1);
  }
  return bars;
}
