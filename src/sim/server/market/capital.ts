// Capital flow and distribution, which candle data cannot know, synthesised deterministically: a seeded walk
// per symbol and market day for the intraday net inflow (one line per session minute up to market time), and
// the day's turnover split into large, medium and small orders in and out.
import type { SecuritySymbol } from '../../../domain/symbol.js';
import type { CapitalDistributionResponse, CapitalFlowIntradayResponse } from '../../../openapi/socket/messages.js';
import { deriveSeed, SeededRandom } from '../../venue/index.js';
import type { MarketDays } from '../../venue/market-days.js';
import type { SymbolQuote } from './quote-board.js';

export function capitalFlow(
  symbol: SecuritySymbol,
  quote: SymbolQuote | undefined,
  days: MarketDays,
  marketTime: number,
  seed: number,
): CapitalFlowIntradayResponse {
  if (quote === undefined) return { symbol, capitalFlowLines: [] };
  const sessions = days.sessionsOf(marketTime);
  const random = new SeededRandom(deriveSeed(seed, `flow:${symbol}:${days.dayKey(marketTime)}`));
  // Steps scale with the day's turnover per session minute so the walk is of the symbol's size.
  let sessionMinutes = 0;
  for (let index = 0; index < sessions.length; index += 2) sessionMinutes += (sessions[index + 1]! - sessions[index]!) / 60_000;
  const scale = Math.max(1, quote.tick.dayTurnover / Math.max(1, sessionMinutes) / 10);
  const lines: { inflow: string; timestamp: number }[] = [];
  let inflow = 0;
  for (let index = 0; index < sessions.length; index += 2) {
    for (let minute = sessions[index]!; minute < sessions[index + 1]! && minute <= marketTime; minute += 60_000) {
      inflow += (random.next() - 0.5) * scale;
      lines.push({ inflow: inflow.toFixed(2), timestamp: Math.floor(minute / 1000) });
    }
  }
  return { symbol, capitalFlowLines: lines };
}

export function capitalDistribution(symbol: SecuritySymbol, quote: SymbolQuote | undefined, seed: number): CapitalDistributionResponse {
  const turnover = quote?.tick.dayTurnover ?? 0;
  const random = new SeededRandom(deriveSeed(seed, `distribution:${symbol}:${quote?.dayKey ?? 0}`));
  const inShare = 0.4 + 0.2 * random.next();
  const split = (total: number): { large: string; medium: string; small: string } => {
    const large = total * (0.3 + 0.3 * random.next());
    const medium = (total - large) * (0.4 + 0.3 * random.next());
    return { large: large.toFixed(2), medium: medium.toFixed(2), small: (total - large - medium).toFixed(2) };
  };
  return {
    symbol,
    timestamp: Math.floor((quote?.tick.time ?? 0) / 1000),
    capitalIn: split(turnover * inShare),
    capitalOut: split(turnover * (1 - inShare)),
  };
}
