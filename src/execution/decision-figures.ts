// The figures of the risk decision being taken (a RiskSnapshot), one object per executor written over for
// each decision: the executor takes one intent at a time, and evaluateRisk reads the figures only during
// its call. A backtest decides on every order.
import { Quantity, type AccountBalance, type BuyLimit, type MarginRatio, type Price } from '../domain/index.js';
import { FRESH_EQUITY_WATCH, type EquityWatch, type FiguresError, type RiskSnapshot } from '../risk/index.js';

export class DecisionFigures implements RiskSnapshot {
  time = 0;
  position: Quantity = Quantity.ZERO;
  pendingQuantity: Quantity = Quantity.ZERO;
  referencePrice: Price | undefined = undefined;
  account: AccountBalance | undefined = undefined;
  buyLimit: BuyLimit | undefined = undefined;
  marginRatio: MarginRatio | undefined = undefined;
  shortSelling: boolean | undefined = undefined;
  figuresError: FiguresError | undefined = undefined;
  recentOrderTimes: readonly number[] = [];
  equity: EquityWatch = FRESH_EQUITY_WATCH;
}
