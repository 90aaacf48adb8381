// Replays candles as quote ticks the way a simulator does: open, then high and low (either order), then
// close, all inside the bar, carrying the day's cumulative volume and turnover.
import type { Candle } from '../../../src/domain/candle.js';
import { Money } from '../../../src/domain/money.js';
import { Price } from '../../../src/domain/price.js';
import { Quantity } from '../../../src/domain/quantity.js';
import { currencyOf, marketOf } from '../../../src/domain/symbol.js';
import type { Quote } from '../../../src/domain/quote.js';

export interface TickOptions {
  /** Offsets (ms from the bar start) of the four ticks. */
  readonly offsets?: readonly [number, number, number, number];
  readonly lowFirst?: boolean;
}

export function ticksOf(
  candles: readonly Candle[],
  options: TickOptions = {},
  startVolume = 0,
  zoneDay: (time: number) => string = () => '',
): Quote[] {
  const ticks: Quote[] = [];
  let cumulative = startVolume;
  let turnover: Money | undefined;
  let day: string | undefined;
  let sequence = 0;
  for (const candle of candles) {
    if (zoneDay(candle.time) !== day && day !== undefined) {
      cumulative = 0;
      turnover = undefined;
    }
    day = zoneDay(candle.time);
    const prices = options.lowFirst
      ? [candle.open, candle.low, candle.high, candle.close]
      : [candle.open, candle.high, candle.low, candle.close];
    // Spread the bar's volume over the four ticks; the last tick carries the remainder.
    const parts = [Math.floor(candle.volume / 4), Math.floor(candle.volume / 4), Math.floor(candle.volume / 4)];
    parts.push(candle.volume - parts[0]! * 3);
    const offsets = options.offsets ?? [0, 1_000, 2_000, 3_000];
    prices.forEach((price, index) => {
      const volume = parts[index]!;
      cumulative += volume;
      const last = Price.of(price);
      const value = Money.notional(Quantity.of(volume), last, currencyOf(marketOf(candle.symbol)));
      turnover = turnover === undefined ? value : turnover.plus(value);
      ticks.push({
        symbol: candle.symbol,
        sequence: ++sequence,
        lastDone: last,
        open: Price.of(candle.open),
        high: last,
        low: last,
        timestamp: candle.time + offsets[index]!,
        volume: cumulative,
        turnover,
        tradeStatus: 0,
        tradeSession: 'normal',
        currentVolume: volume,
        currentTurnover: value,
      });
    });
  }
  return ticks;
}
