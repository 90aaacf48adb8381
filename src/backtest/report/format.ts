// Number formatting shared by the terminal summary and the HTML report: money, percentages, ratios, dates.
import { Decimal } from '../../domain/decimal.js';

const NOT_APPLICABLE = 'n/a';

// Written out rather than through Intl.NumberFormat, whose first use a start-up snapshot cannot do ahead
// (bench/README.md). Intl's en-US output is the reference of the tests (and still formats beyond 1e21).
/** `value` with `places` fraction digits (at most, when `trim`), thousands grouped: Intl's en-US text. */
function grouped(value: number, places: number, trim: boolean): string {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) {
    return new Intl.NumberFormat('en-US', { minimumFractionDigits: trim ? 0 : places, maximumFractionDigits: places }).format(value);
  }
  // Intl (ICU) rounds the shortest decimal that reads back as the double, half away from zero (toFixed would
  // round the double's exact binary value: 2.675 is 2.67499…); it also signs a negative zero.
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  let text = new Decimal(Math.abs(value)).toFixed(places, Decimal.ROUND_HALF_UP);
  if (trim && places > 0) text = text.replace(/\.?0+$/, '');
  const point = text.indexOf('.');
  const whole = point < 0 ? text : text.slice(0, point);
  let groups = whole.slice(0, ((whole.length - 1) % 3) + 1);
  for (let index = groups.length; index < whole.length; index += 3) groups += `,${whole.slice(index, index + 3)}`;
  return sign + groups + (point < 0 ? '' : text.slice(point));
}

/** "12,345.67"; negative as "-12,345.67". */
export function formatMoney(value: number | null): string {
  return value === null ? NOT_APPLICABLE : grouped(value, 2, false);
}

/**
 * A fraction as a percentage with two places: 0.1234 → "12.34%", with a sign when `signed` ("+12.34%").
 * Beyond a million percent (the CAGR of a run of a few days) it switches to exponent form: "6.09e+38%".
 */
export function formatPercent(fraction: number | null, signed = false): string {
  if (fraction === null) return NOT_APPLICABLE;
  const percent = fraction * 100;
  const text = `${Math.abs(percent) >= 1e6 ? percent.toExponential(2) : grouped(percent, 2, false)}%`;
  return signed && fraction > 0 ? `+${text}` : text;
}

export function formatRatio(value: number | null): string {
  return value === null ? NOT_APPLICABLE : grouped(value, 2, false);
}

/** Symbols a title names before a long universe is shortened to its count, first and last symbols. */
const LISTED_SYMBOLS = 8;

/** The run's symbols for a title line: all of a few, or "500 symbols: A, B, C … Z". */
export function symbolsText(symbols: readonly string[]): string {
  if (symbols.length <= LISTED_SYMBOLS) return symbols.join(', ');
  return `${formatCount(symbols.length)} symbols: ${symbols.slice(0, 3).join(', ')} … ${symbols[symbols.length - 1]}`;
}

export function formatCount(value: number | null): string {
  return value === null ? NOT_APPLICABLE : Number.isInteger(value) ? grouped(value, 0, false) : grouped(value, 1, true);
}

/** The wall-clock part of an ISO time with offset: "2024-01-02" (daily) or "2024-01-02 09:30" (intraday). */
export function formatLocal(iso: string | null, intraday: boolean): string {
  if (iso === null) return NOT_APPLICABLE;
  return intraday ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
}

export type Tone = 'positive' | 'negative' | 'neutral';

export function toneOf(value: number | null): Tone {
  return value === null || value === 0 ? 'neutral' : value > 0 ? 'positive' : 'negative';
}

/** "day", or "week bars (built from day data)" when the strategy saw coarser bars than the data has. */
export function periodText(result: { readonly period: string; readonly dataPeriod: string }): string {
  return result.period === result.dataPeriod ? result.period : `${result.period} bars (built from ${result.dataPeriod} data)`;
}

/** "entry tag → exit tag" of a trade, either side left out when untagged ("" when neither is tagged). */
export function tradeTags(trade: { readonly entryTag: string | null; readonly exitTag: string | null }): string {
  if (trade.entryTag === null && trade.exitTag === null) return '';
  return `${trade.entryTag ?? '·'} → ${trade.exitTag ?? '·'}`;
}
