// Instruments: what a symbol trades in (lot size, tick rule, currency, name) and the per-market defaults
// used when neither the service's static info nor a securities file names the symbol.
import { currencyOf, marketOf, type Market, type SecuritySymbol } from './symbol.js';
import type { TickRule } from './tick-rules.js';

export interface Instrument {
  readonly symbol: SecuritySymbol;
  /** Display name ("" when unknown). */
  readonly name: string;
  readonly currency: string;
  /** Shares per board lot; orders are whole lots (HK odd lots only as ODD orders, CN odd lots only on sells). */
  readonly lotSize: number;
  readonly tick: TickRule;
  /** Whether fractional share quantities are accepted (only US stocks may allow them). */
  readonly fractionalShares: boolean;
}

/** What a market's instruments have when nothing more is known (documented in the README's venue section). */
export const MARKET_DEFAULTS: Readonly<Record<Market, { readonly lotSize: number; readonly tick: TickRule }>> = {
  HK: { lotSize: 100, tick: 'hk-spread-table' },
  US: { lotSize: 1, tick: 'us-stock' },
  CN: { lotSize: 100, tick: 'cn-stock' },
  SG: { lotSize: 100, tick: 'sg-stock' },
};

/** Fields known about a symbol from one source; the rest come from the market's defaults. */
export type InstrumentFields = Partial<Omit<Instrument, 'symbol'>>;

export function instrumentOf(symbol: SecuritySymbol, known: InstrumentFields = {}): Instrument {
  const market = marketOf(symbol);
  const defaults = MARKET_DEFAULTS[market];
  return {
    symbol,
    name: known.name ?? '',
    currency: known.currency ?? currencyOf(market),
    lotSize: known.lotSize ?? defaults.lotSize,
    tick: known.tick ?? defaults.tick,
    fractionalShares: known.fractionalShares ?? false,
  };
}

/** Quantity rounded down to whole lots (0 when less than one lot). */
export function wholeLots(instrument: Pick<Instrument, 'lotSize'>, quantity: number): number {
  const lots = Math.floor(quantity / instrument.lotSize + 1e-9);
  return lots * instrument.lotSize;
}
