// Generated option chains on every replayed security (the replay has no option data): monthly expiries on the
// third Friday of the next six months, 21 strikes around the previous close, and quotes priced by Black–Scholes
// from the underlying's replayed price and its historical volatility, with a mild smile. Symbols follow the OCC
// style the service uses for US options: ROOT + YYMMDD + C|P + strike × 1000, e.g. AAPL240216C190000.US.
import { isMarket, type SecuritySymbol } from '../../../domain/symbol.js';
import type { OptionQuoteMessage, StrikePriceMessage } from '../../../openapi/socket/messages.js';
import { deriveSeed, SeededRandom } from '../../venue/index.js';
import { optionGreeks, type Greeks } from './black-scholes.js';
import { daysBetween, thirdFriday } from './day-keys.js';
import type { Underlyings, UnderlyingView } from './underlyings.js';

export const OPTION_EXPIRIES = 6;
const STRIKES_EACH_SIDE = 10;
export const RISK_FREE_RATE = 0.03;
export const CONTRACT_MULTIPLIER = 100;

export interface OptionContract {
  readonly symbol: string;
  readonly underlying: SecuritySymbol;
  readonly expiry: number;
  readonly kind: 'call' | 'put';
  readonly strike: number;
}

/** Step between strikes for an underlying around `price`. */
export function strikeStep(price: number): number {
  if (price < 10) return 0.5;
  if (price < 50) return 1;
  if (price < 200) return 2.5;
  if (price < 1000) return 5;
  return 10;
}

export function optionSymbol(underlying: SecuritySymbol, expiry: number, kind: 'call' | 'put', strike: number): string {
  const dot = underlying.lastIndexOf('.');
  const yymmdd = String(expiry % 1_000_000).padStart(6, '0');
  return `${underlying.slice(0, dot)}${yymmdd}${kind === 'call' ? 'C' : 'P'}${Math.round(strike * 1000)}${underlying.slice(dot)}`;
}

const OPTION_SYMBOL = /^(.+)(\d{6})([CP])(\d+)\.([A-Z]+)$/;

/** The contract a symbol names, when its underlying is a replayed security. */
export function parseOptionSymbol(symbol: string, known: (symbol: string) => SecuritySymbol | undefined): OptionContract | undefined {
  const match = OPTION_SYMBOL.exec(symbol.toUpperCase());
  if (match === null || !isMarket(match[5]!)) return undefined;
  const underlying = known(`${match[1]}.${match[5]}`);
  if (underlying === undefined) return undefined;
  return {
    symbol: symbol.toUpperCase(),
    underlying,
    expiry: 20_000_000 + Number(match[2]),
    kind: match[3] === 'C' ? 'call' : 'put',
    strike: Number(match[4]) / 1000,
  };
}

export class OptionChains {
  constructor(
    private readonly underlyings: Underlyings,
    private readonly seed: number,
  ) {}

  /** Expiry dates (yyyymmdd) still ahead of the market date. */
  expiries(underlying: SecuritySymbol): number[] {
    const today = this.underlyings.dayKey(underlying);
    const dates: number[] = [];
    for (let months = 0; dates.length < OPTION_EXPIRIES; months++) {
      const date = thirdFriday(today, months);
      if (date >= today) dates.push(date);
    }
    return dates;
  }

  strikes(underlying: SecuritySymbol, expiry: number): StrikePriceMessage[] {
    const reference = this.underlyings.referencePrice(underlying);
    if (reference === undefined || !this.expiries(underlying).includes(expiry)) return [];
    const step = strikeStep(reference);
    const center = Math.round(reference / step);
    const rows: StrikePriceMessage[] = [];
    for (let index = center - STRIKES_EACH_SIDE; index <= center + STRIKES_EACH_SIDE; index++) {
      const strike = index * step;
      if (strike <= 0) continue;
      rows.push({
        price: strikeText(strike),
        callSymbol: optionSymbol(underlying, expiry, 'call', strike),
        putSymbol: optionSymbol(underlying, expiry, 'put', strike),
        standard: true,
      });
    }
    return rows;
  }

  contract(symbol: string): OptionContract | undefined {
    const known = new Set<string>(this.underlyings.symbols);
    return parseOptionSymbol(symbol, (text) => (known.has(text) ? (text as SecuritySymbol) : undefined));
  }

  /** Implied volatility of a strike: the underlying's historical volatility with a smile around the previous close. */
  impliedVolatility(contract: OptionContract, view: UnderlyingView): number {
    const moneyness = Math.log(contract.strike / view.prevClose);
    const volatility = this.underlyings.historicalVolatility(contract.underlying) * (1 + 0.5 * moneyness * moneyness - 0.1 * moneyness);
    return Number(volatility.toFixed(4));
  }

  /** Price and Greeks with the underlying at `spot` (its price now when omitted); undefined once expired. */
  greeks(contract: OptionContract, spot?: number, extraDays = 0): Greeks | undefined {
    const view = this.underlyings.view(contract.underlying);
    if (view === undefined) return undefined;
    const days = daysBetween(view.dayKey, contract.expiry);
    if (days < 0) return undefined;
    return optionGreeks(contract.kind, {
      spot: spot ?? view.spot,
      strike: contract.strike,
      years: (days + 1 + extraDays) / 365,
      volatility: this.impliedVolatility(contract, view),
      rate: RISK_FREE_RATE,
    });
  }

  quote(symbol: string): OptionQuoteMessage | undefined {
    const contract = this.contract(symbol);
    const view = contract === undefined ? undefined : this.underlyings.view(contract.underlying);
    if (contract === undefined || view === undefined) return undefined;
    const tick = view.quote.tick;
    const priceAt = (spot: number, extraDays = 0): number => premium(this.greeks(contract, spot, extraDays)?.price ?? 0);
    const last = priceAt(view.spot);
    const open = priceAt(tick.dayOpen);
    const [highSpot, lowSpot] = contract.kind === 'call' ? [tick.dayHigh, tick.dayLow] : [tick.dayLow, tick.dayHigh];
    const random = new SeededRandom(deriveSeed(this.seed, `option:${contract.symbol}:${view.dayKey}`));
    const volume = Math.floor((tick.dayVolume / 1000) * random.next());
    const openInterest = 100 + Math.floor(random.next() * 50_000);
    return {
      symbol: contract.symbol,
      lastDone: last.toFixed(2),
      prevClose: priceAt(view.prevClose, 1).toFixed(2),
      open: open.toFixed(2),
      high: Math.max(priceAt(highSpot), open, last).toFixed(2),
      low: Math.min(priceAt(lowSpot), open, last).toFixed(2),
      timestamp: Math.floor(view.time / 1000),
      volume,
      turnover: (volume * last * CONTRACT_MULTIPLIER).toFixed(2),
      tradeStatus: 0,
      optionExtend: {
        impliedVolatility: this.impliedVolatility(contract, view).toFixed(4),
        openInterest,
        expiryDate: String(contract.expiry),
        strikePrice: strikeText(contract.strike),
        contractMultiplier: String(CONTRACT_MULTIPLIER),
        contractType: 'A',
        contractSize: String(CONTRACT_MULTIPLIER),
        direction: contract.kind === 'call' ? 'C' : 'P',
        historicalVolatility: this.underlyings.historicalVolatility(contract.underlying).toFixed(4),
        underlyingSymbol: contract.underlying,
      },
    };
  }
}

/** An option premium to the cent, never below one cent while listed. */
function premium(value: number): number {
  return Math.max(0.01, Math.round(value * 100) / 100);
}

function strikeText(strike: number): string {
  return String(Number(strike.toFixed(3)));
}
