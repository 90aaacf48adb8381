// Corporate actions a venue applies to unadjusted prices: cash dividends and share splits.
import { Fixed } from './fixed.js';
import { Price } from './price.js';
import { parseSymbol, type SecuritySymbol } from './symbol.js';

/** One action; `exDate` is the market's local date (YYYY-MM-DD) the prices first reflect it. */
export type CorporateAction =
  | { readonly kind: 'dividend'; readonly symbol: SecuritySymbol; readonly exDate: string; readonly perShare: Price }
  /** `ratio` new shares per old share: 2 for a 2-for-1 split, 0.1 for a 1-for-10 reverse split. */
  | { readonly kind: 'split'; readonly symbol: SecuritySymbol; readonly exDate: string; readonly ratio: Fixed };

/**
 * What candle prices are: `none` (unadjusted: the venue applies the actions on their ex-dates) or `forward`
 * (already adjusted for them: applying them again would count them twice, so none are applied).
 */
export const PRICE_ADJUSTMENTS = ['none', 'forward'] as const;
export type PriceAdjustment = (typeof PRICE_ADJUSTMENTS)[number];

/** An action as plain data (decimals as text): what crosses to worker threads and queue workers. */
export interface CorporateActionJson {
  readonly kind: 'dividend' | 'split';
  readonly symbol: string;
  readonly exDate: string;
  /** Per-share amount of a dividend, or a split's ratio. */
  readonly value: string;
}

export function corporateActionToJson(action: CorporateAction): CorporateActionJson {
  const value = action.kind === 'dividend' ? action.perShare.toString() : action.ratio.toString();
  return { kind: action.kind, symbol: action.symbol, exDate: action.exDate, value };
}

export function corporateActionFromJson(json: CorporateActionJson): CorporateAction {
  const symbol = parseSymbol(json.symbol);
  return json.kind === 'dividend'
    ? { kind: 'dividend', symbol, exDate: json.exDate, perShare: Price.of(json.value) }
    : { kind: 'split', symbol, exDate: json.exDate, ratio: Fixed.of(json.value) };
}
