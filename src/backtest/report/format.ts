// Number formatting shared by the terminal summary and the HTML report: money, percentages, ratios, dates.

const NOT_APPLICABLE = 'n/a';

// Made on first use, not when the module loads: the start-up snapshot (src/snapshot/) cannot hold Intl objects.
let formats: { money: Intl.NumberFormat; ratio: Intl.NumberFormat; whole: Intl.NumberFormat; decimal: Intl.NumberFormat } | undefined;

function numberFormats(): NonNullable<typeof formats> {
  formats ??= {
    money: new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    ratio: new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    whole: new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }),
    decimal: new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }),
  };
  return formats;
}

/** "12,345.67"; negative as "-12,345.67". */
export function formatMoney(value: number | null): string {
  return value === null ? NOT_APPLICABLE : numberFormats().money.format(value);
}

/**
 * A fraction as a percentage with two places: 0.1234 → "12.34%", with a sign when `signed` ("+12.34%").
 * Beyond a million percent (the CAGR of a run of a few days) it switches to exponent form: "6.09e+38%".
 */
export function formatPercent(fraction: number | null, signed = false): string {
  if (fraction === null) return NOT_APPLICABLE;
  const percent = fraction * 100;
  const text = `${Math.abs(percent) >= 1e6 ? percent.toExponential(2) : numberFormats().ratio.format(percent)}%`;
  return signed && fraction > 0 ? `+${text}` : text;
}

export function formatRatio(value: number | null): string {
  return value === null ? NOT_APPLICABLE : numberFormats().ratio.format(value);
}

export function formatCount(value: number | null): string {
  return value === null
    ? NOT_APPLICABLE
    : Number.isInteger(value)
      ? numberFormats().whole.format(value)
      : numberFormats().decimal.format(value);
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
