// Corporate actions a venue applies to unadjusted prices: cash dividends and share splits.
import type { Fixed } from './fixed.js';
import type { Price } from './price.js';
import type { SecuritySymbol } from './symbol.js';

/** One action; `exDate` is the market's local date (YYYY-MM-DD) the prices first reflect it. */
export type CorporateAction =
  | { readonly kind: 'dividend'; readonly symbol: SecuritySymbol; readonly exDate: string; readonly perShare: Price }
  /** `ratio` new shares per old share: 2 for a 2-for-1 split, 0.1 for a 1-for-10 reverse split. */
  | { readonly kind: 'split'; readonly symbol: SecuritySymbol; readonly exDate: string; readonly ratio: Fixed };
