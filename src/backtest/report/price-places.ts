// How many decimal places a symbol's prices have in the data: what the summary and the report print
// prices at, so 2730.73999 (a float as it comes) reads 2730.739990 beside 2633.360107.
import type { Candle } from '../../domain/candle.js';
import type { CandleColumns } from '../../feeds/history/candle-columns.js';
import type { BarHistory } from '../bar-history.js';
import type { BacktestResult } from '../result.js';
import { Fixed } from '../../domain/fixed.js';
import { POWERS_OF_TEN } from '../../domain/fixed-raw.js';
import { floatPlaces } from '../../domain/fixed-text.js';

/** The most places looked for in a float (floatPlaces' limit). */
const MAX_FLOAT_PLACES = 8;

/** The most places of any open, high, low or close (at most 8; prices with more are shown at 8). */
export function pricePlaces(bars: BarHistory): number {
  if (!Array.isArray(bars)) return Math.min((bars as CandleColumns).pricePlaces, MAX_FLOAT_PLACES);
  const candles = bars as readonly Candle[];
  let places = 0;
  for (let index = 0; index < candles.length && places < MAX_FLOAT_PLACES; index += 1) {
    const candle = candles[index]!;
    places = widen(places, candle.open);
    places = widen(places, candle.high);
    places = widen(places, candle.low);
    places = widen(places, candle.close);
  }
  return places;
}

// One rounding per price while it fits the places found so far; a full search only when it does not.
function widen(places: number, price: number): number {
  const scale = POWERS_OF_TEN[places]!;
  if (Math.round(price * scale) / scale === price) return places;
  const own = floatPlaces(price);
  return own < 0 ? MAX_FLOAT_PLACES : Math.max(places, own);
}

/** An exact decimal string at `places` places: "2730.73999" at 6 → "2730.739990" (more places are rounded half to even). */
export function formatPrice(text: string, places: number): string {
  return Fixed.of(text).toFixed(places);
}

/** A price of the result at the data's decimal places for its symbol (as given for a symbol without data). */
export function priceText(result: Pick<BacktestResult, 'pricePlaces'>, symbol: string, text: string): string {
  const places = result.pricePlaces[symbol];
  return places === undefined ? text : formatPrice(text, places);
}
