// Win/loss statistics over closed trades, summed exactly and reported as numbers.
import { ratioOf } from '../../domain/decimal.js';
import { Money, NO_CURRENCY } from '../../domain/money.js';
import type { ClosedTrade } from './trades.js';

export interface TradeStats {
  readonly closedTrades: number;
  /** pnl > 0; a trade at exactly zero is neither a win nor a loss. */
  readonly winningTrades: number;
  readonly losingTrades: number;
  readonly winRate: number | null;
  readonly grossProfit: number;
  /** Sum of the losing trades' pnl as a positive number. */
  readonly grossLoss: number;
  /** grossProfit / grossLoss; null without a losing trade. */
  readonly profitFactor: number | null;
  readonly averageTrade: number | null;
  readonly bestTrade: number | null;
  readonly worstTrade: number | null;
}

export function tradeStats(trades: readonly ClosedTrade[]): TradeStats {
  let winningTrades = 0;
  let losingTrades = 0;
  const zero = trades[0] === undefined ? Money.zero(NO_CURRENCY) : Money.zero(trades[0].pnl.currency);
  let profit = zero;
  let loss = zero;
  let best = trades[0]?.pnl;
  let worst = trades[0]?.pnl;
  for (const trade of trades) {
    if (trade.pnl.isPositive()) {
      winningTrades += 1;
      profit = profit.plus(trade.pnl);
    } else if (trade.pnl.isNegative()) {
      losingTrades += 1;
      loss = loss.minus(trade.pnl);
    }
    if (best !== undefined && trade.pnl.gt(best)) best = trade.pnl;
    if (worst !== undefined && trade.pnl.lt(worst)) worst = trade.pnl;
  }
  const count = trades.length;
  return {
    closedTrades: count,
    winningTrades,
    losingTrades,
    winRate: count === 0 ? null : winningTrades / count,
    grossProfit: profit.toNumber(),
    grossLoss: loss.toNumber(),
    profitFactor: loss.isZero() ? null : ratioOf(profit, loss),
    averageTrade: count === 0 ? null : ratioOf(profit.minus(loss), count),
    bestTrade: best === undefined ? null : best.toNumber(),
    worstTrade: worst === undefined ? null : worst.toNumber(),
  };
}
