// Generated warrants on every replayed HK security (the replay has no warrant data): two calls, two puts, two
// bull and two bear CBBCs and two inline warrants each, from six simulated issuers, struck around the security's
// first price in the data and expiring at month ends ahead of the market date. Prices follow the underlying's
// replayed price: Black–Scholes for calls and puts, intrinsic value plus funding for CBBCs, a range digital
// paying 0.25 for inline warrants.
import { marketOf, type SecuritySymbol } from '../../../domain/symbol.js';
import type { IssuerMessage, WarrantExtend } from '../../../openapi/socket/messages.js';
import type { WarrantType } from '../../../openapi/socket/reference-enums.js';
import { deriveSeed, SeededRandom } from '../../venue/index.js';
import { optionGreeks, rangeDigital } from './black-scholes.js';
import { addDays, daysBetween, lastWeekdayOfMonth } from './day-keys.js';
import { RISK_FREE_RATE, strikeStep } from './option-chain.js';
import type { Underlyings, UnderlyingView } from './underlyings.js';

export const WARRANT_ISSUERS: readonly IssuerMessage[] = Array.from({ length: 6 }, (_, index) => ({
  id: index + 1,
  nameCn: `模拟发行商${index + 1}`,
  nameEn: `Simulated Issuer ${index + 1}`,
  nameHk: `模擬發行商${index + 1}`,
}));

const INLINE_PAYOUT = 0.25;
const ISSUED_QUANTITY = 100_000_000;

interface WarrantTerms {
  readonly type: WarrantType;
  /** Strike (or lower bound) and upper bound as multiples of the reference price. */
  readonly strike: number;
  readonly upper?: number;
  /** Call price as a multiple of the reference price (CBBCs). */
  readonly call?: number;
  readonly months: number;
  readonly ratio: number;
}

const TERMS: readonly WarrantTerms[] = [
  { type: 'Call', strike: 1.05, months: 3, ratio: 10 },
  { type: 'Call', strike: 1.15, months: 9, ratio: 10 },
  { type: 'Put', strike: 0.95, months: 3, ratio: 10 },
  { type: 'Put', strike: 0.85, months: 9, ratio: 10 },
  { type: 'Bull', strike: 0.9, call: 0.93, months: 6, ratio: 10 },
  { type: 'Bull', strike: 0.85, call: 0.88, months: 12, ratio: 10 },
  { type: 'Bear', strike: 1.1, call: 1.07, months: 6, ratio: 10 },
  { type: 'Bear', strike: 1.15, call: 1.12, months: 12, ratio: 10 },
  { type: 'Inline', strike: 0.9, upper: 1.1, months: 4, ratio: 1 },
  { type: 'Inline', strike: 0.85, upper: 1.15, months: 8, ratio: 1 },
];

const CODE_BASES: Readonly<Record<WarrantType, number>> = { Call: 20_000, Put: 20_000, Bull: 60_000, Bear: 60_000, Inline: 47_000 };

export interface Warrant {
  readonly symbol: SecuritySymbol;
  readonly underlying: SecuritySymbol;
  readonly name: string;
  readonly type: WarrantType;
  readonly issuer: number;
  /** Strike, or the lower bound of an inline warrant. */
  readonly strike: number;
  readonly upper: number | undefined;
  readonly callPrice: number | undefined;
  readonly expiry: number;
  readonly lastTradeDate: number;
  /** Warrants per underlying share. */
  readonly ratio: number;
}

/** A warrant's figures at the underlying's current price. */
export interface WarrantFigures {
  readonly warrant: Warrant;
  readonly view: UnderlyingView;
  readonly last: number;
  readonly prevClose: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly volume: number;
  readonly outstanding: number;
  readonly impliedVolatility: number | undefined;
  readonly delta: number | undefined;
}

export class Warrants {
  constructor(
    private readonly underlyings: Underlyings,
    private readonly seed: number,
  ) {}

  /** The warrants on `underlying` (none outside HK), as of the market date. */
  on(underlying: SecuritySymbol): Warrant[] {
    const index = this.underlyings.symbols.filter((symbol) => marketOf(symbol) === 'HK').indexOf(underlying);
    const first = this.underlyings.candles.series(underlying)?.candles[0]?.close;
    if (index < 0 || first === undefined) return [];
    const today = this.underlyings.dayKey(underlying);
    const step = strikeStep(first) / 5;
    const level = (multiple: number): number => Number((Math.round((first * multiple) / step) * step).toFixed(3));
    const short = this.underlyings.nameOf(underlying).toUpperCase().replace(/\s+/g, '').slice(0, 6);
    return TERMS.map((terms, number) => {
      const expiry = lastWeekdayOfMonth(today, terms.months);
      const issuer = WARRANT_ISSUERS[(index + number) % WARRANT_ISSUERS.length]!.id;
      const yymm = String(expiry).slice(2, 6);
      return {
        symbol: `${CODE_BASES[terms.type] + index * 10 + number}.HK` as SecuritySymbol,
        underlying,
        name: `${short} SI${issuer}${yymm}${terms.type[0]}`,
        type: terms.type,
        issuer,
        strike: level(terms.strike),
        upper: terms.upper === undefined ? undefined : level(terms.upper),
        callPrice: terms.call === undefined ? undefined : level(terms.call),
        expiry,
        lastTradeDate: addDays(expiry, -4),
        ratio: terms.ratio,
      };
    });
  }

  all(): Warrant[] {
    return this.underlyings.symbols.flatMap((symbol) => this.on(symbol));
  }

  find(symbol: string): Warrant | undefined {
    return this.all().find((warrant) => warrant.symbol === symbol);
  }

  figures(warrant: Warrant): WarrantFigures | undefined {
    const view = this.underlyings.view(warrant.underlying);
    if (view === undefined) return undefined;
    const tick = view.quote.tick;
    const volatility = this.underlyings.historicalVolatility(warrant.underlying) * 1.1;
    const days = Math.max(0, daysBetween(view.dayKey, warrant.expiry));
    const at = (spot: number, extraDays = 0): number => warrantPrice(warrant, spot, (days + 1 + extraDays) / 365, volatility);
    const last = at(view.spot);
    const open = at(tick.dayOpen);
    const random = new SeededRandom(deriveSeed(this.seed, `warrant:${warrant.symbol}:${view.dayKey}`));
    const volume = Math.floor(tick.dayVolume * 5 * random.next());
    const outstanding = Math.floor(
      ISSUED_QUANTITY * (0.01 + 0.5 * new SeededRandom(deriveSeed(this.seed, `issued:${warrant.symbol}`)).next()),
    );
    const optionLike = warrant.type === 'Call' || warrant.type === 'Put';
    return {
      warrant,
      view,
      last,
      prevClose: at(view.prevClose, 1),
      open,
      high: Math.max(open, last, at(tick.dayHigh), at(tick.dayLow)),
      low: Math.min(open, last, at(tick.dayHigh), at(tick.dayLow)),
      volume,
      outstanding,
      impliedVolatility: optionLike ? Number(volatility.toFixed(4)) : undefined,
      delta: optionLike
        ? optionGreeks(warrant.type === 'Call' ? 'call' : 'put', {
            spot: view.spot,
            strike: warrant.strike,
            years: (days + 1) / 365,
            volatility,
            rate: RISK_FREE_RATE,
          }).delta
        : undefined,
    };
  }

  /** The quote's warrant extension; "0" where a field does not apply to the type (the SDK needs a number there). */
  extend(figures: WarrantFigures): WarrantExtend {
    const { warrant } = figures;
    return {
      impliedVolatility: figures.impliedVolatility?.toFixed(4) ?? '0',
      expiryDate: String(warrant.expiry),
      lastTradeDate: String(warrant.lastTradeDate),
      outstandingRatio: ((figures.outstanding / ISSUED_QUANTITY) * 100).toFixed(2),
      outstandingQty: figures.outstanding,
      conversionRatio: String(warrant.ratio),
      category: warrant.type,
      strikePrice: warrant.type === 'Inline' ? '0' : String(warrant.strike),
      upperStrikePrice: warrant.upper === undefined ? '0' : String(warrant.upper),
      lowerStrikePrice: warrant.type === 'Inline' ? String(warrant.strike) : '0',
      callPrice: warrant.callPrice === undefined ? '0' : String(warrant.callPrice),
      underlyingSymbol: warrant.underlying,
    };
  }
}

function warrantPrice(warrant: Warrant, spot: number, years: number, volatility: number): number {
  const funding = (warrant.strike * RISK_FREE_RATE * years) / warrant.ratio;
  let value: number;
  switch (warrant.type) {
    case 'Call':
    case 'Put':
      value =
        optionGreeks(warrant.type === 'Call' ? 'call' : 'put', { spot, strike: warrant.strike, years, volatility, rate: RISK_FREE_RATE })
          .price / warrant.ratio;
      break;
    case 'Bull':
      value = (spot - warrant.strike) / warrant.ratio + funding;
      break;
    case 'Bear':
      value = (warrant.strike - spot) / warrant.ratio + funding;
      break;
    case 'Inline':
      value = INLINE_PAYOUT * rangeDigital({ spot, years, volatility, rate: RISK_FREE_RATE }, warrant.strike, warrant.upper!);
      break;
  }
  return Math.max(0.001, Math.round(value * 1000) / 1000);
}
