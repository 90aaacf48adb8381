// Account figures the risk layer checks against (PROTOCOL.md §4 account, buy limit, margin ratio).
import type { Decimal } from './decimal.js';

export interface CashInfo {
  readonly currency: string;
  readonly withdrawCash: Decimal;
  readonly availableCash: Decimal;
  readonly frozenCash: Decimal;
  readonly settlingCash: Decimal;
}

export interface AccountBalance {
  readonly currency: string;
  readonly totalCash: Decimal;
  readonly maxFinanceAmount: Decimal;
  readonly remainingFinanceAmount: Decimal;
  readonly riskLevel: number;
  readonly marginCall: Decimal;
  readonly netAssets: Decimal;
  readonly initMargin: Decimal;
  readonly maintenanceMargin: Decimal;
  readonly buyPower: Decimal;
  readonly cashInfos: readonly CashInfo[];
  readonly frozenTransactionFees: readonly { readonly currency: string; readonly frozenTransactionFee: Decimal }[];
}

/** The broker's estimate of the most one order may buy (or sell short). */
export interface BuyLimit {
  readonly cashMaxQty: Decimal;
  readonly marginMaxQty: Decimal;
}

/** Initial, maintenance and forced-liquidation margin factors of a symbol (0.25 = 25 %). */
export interface MarginRatio {
  readonly imFactor: Decimal;
  readonly mmFactor: Decimal;
  readonly fmFactor: Decimal;
}
