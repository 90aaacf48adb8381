// Reference data of the quote connection as domain values: trading days (cmd 9), trading sessions (cmd 8),
// intraday capital flow (cmd 24) and capital distribution (cmd 25). Decimals stay exact; times are epoch ms.
import { Decimal, parseDecimal } from '../../domain/decimal.js';

const ZERO = new Decimal(0);
import { parseSymbol, type SecuritySymbol } from '../../domain/symbol.js';
import type { TradeSession } from '../../domain/quote.js';
import type {
  CapitalDistribution,
  CapitalDistributionResponse,
  CapitalFlowIntradayResponse,
  MarketTradeDayResponse,
  MarketTradePeriodResponse,
} from './messages.js';
import { tradeSessionFromCode } from './periods.js';

export interface TradingDays {
  /** YYYY-MM-DD, ascending. */
  readonly tradingDays: readonly string[];
  readonly halfTradingDays: readonly string[];
}

export interface MarketSessions {
  readonly market: string;
  /** HHMM local times. */
  readonly sessions: readonly { readonly begin: number; readonly end: number; readonly session: TradeSession }[];
}

export interface CapitalFlow {
  readonly symbol: SecuritySymbol;
  readonly lines: readonly { readonly timestamp: number; readonly inflow: Decimal }[];
}

export interface CapitalSizes {
  readonly large: Decimal;
  readonly medium: Decimal;
  readonly small: Decimal;
}

export interface CapitalDistributionSnapshot {
  readonly symbol: SecuritySymbol;
  readonly timestamp: number;
  readonly capitalIn: CapitalSizes;
  readonly capitalOut: CapitalSizes;
}

/** "20240102" → "2024-01-02" (the wire's compact dates). */
export function isoDate(compact: string): string {
  return /^\d{8}$/.test(compact) ? `${compact.slice(0, 4)}-${compact.slice(4, 6)}-${compact.slice(6, 8)}` : compact;
}

/** "2024-01-02" → "20240102". */
export function compactDate(iso: string): string {
  return iso.replaceAll('-', '');
}

export function tradingDaysFromMessage(message: MarketTradeDayResponse): TradingDays {
  return { tradingDays: message.tradeDay.map(isoDate), halfTradingDays: message.halfTradeDay.map(isoDate) };
}

export function sessionsFromMessage(message: MarketTradePeriodResponse): MarketSessions[] {
  return message.marketTradeSession.map((market) => ({
    market: market.market,
    sessions: market.tradeSession.map((period) => ({
      begin: period.begTime,
      end: period.endTime,
      session: tradeSessionFromCode(period.tradeSession),
    })),
  }));
}

export function capitalFlowFromMessage(message: CapitalFlowIntradayResponse): CapitalFlow {
  return {
    symbol: parseSymbol(message.symbol),
    lines: message.capitalFlowLines.map((line) => ({ timestamp: line.timestamp * 1000, inflow: parseDecimal(line.inflow, 'inflow') })),
  };
}

function sizes(value: CapitalDistribution | null | undefined): CapitalSizes {
  const read = (text: string | undefined, field: string): Decimal => (text === undefined || text === '' ? ZERO : parseDecimal(text, field));
  return { large: read(value?.large, 'large'), medium: read(value?.medium, 'medium'), small: read(value?.small, 'small') };
}

export function capitalDistributionFromMessage(message: CapitalDistributionResponse): CapitalDistributionSnapshot {
  return {
    symbol: parseSymbol(message.symbol),
    timestamp: message.timestamp * 1000,
    capitalIn: sizes(message.capitalIn),
    capitalOut: sizes(message.capitalOut),
  };
}
