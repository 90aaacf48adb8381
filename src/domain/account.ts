// Account figures the risk layer checks against (PROTOCOL.md §4 account, buy limit, margin ratio).
import type { Fixed } from './fixed.js';
import type { Money } from './money.js';
import type { Quantity } from './quantity.js';

export interface CashInfo {
  readonly currency: string;
  readonly withdrawCash: Money;
  readonly availableCash: Money;
  readonly frozenCash: Money;
  readonly settlingCash: Money;
}

export interface AccountBalance {
  readonly currency: string;
  readonly totalCash: Money;
  readonly maxFinanceAmount: Money;
  readonly remainingFinanceAmount: Money;
  readonly riskLevel: number;
  readonly marginCall: Money;
  readonly netAssets: Money;
  readonly initMargin: Money;
  readonly maintenanceMargin: Money;
  readonly buyPower: Money;
  readonly cashInfos: readonly CashInfo[];
  readonly frozenTransactionFees: readonly { readonly currency: string; readonly frozenTransactionFee: Money }[];
}

/** The broker's estimate of the most one order may buy (or sell short). */
export interface BuyLimit {
  readonly cashMaxQty: Quantity;
  readonly marginMaxQty: Quantity;
}

/** Initial, maintenance and forced-liquidation margin factors of a symbol (0.25 = 25 %). */
export interface MarginRatio {
  readonly imFactor: Fixed;
  readonly mmFactor: Fixed;
  readonly fmFactor: Fixed;
}
