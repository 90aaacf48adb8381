// Fresh figures for one risk decision, fetched from the broker in parallel (or taken at once from a broker
// that answers in process): account balances, the buy-limit estimate and the margin ratio. A failed fetch
// is reported, never papered over with stale figures.
import {
  currencyOf,
  marketOf,
  type AccountBalance,
  type BuyLimit,
  type Clock,
  type MarginRatio,
  type OrderRequest,
} from '../domain/index.js';
import type { FiguresError } from '../risk/engine.js';
import { isUnknownSymbolError, type Broker, type ImmediateAnswers } from './broker.js';
import { withTimeout } from './with-timeout.js';

export interface RiskData {
  readonly balances: readonly AccountBalance[] | undefined;
  readonly account: AccountBalance | undefined;
  readonly buyLimit: BuyLimit | undefined;
  readonly marginRatio: MarginRatio | undefined;
  readonly error: FiguresError | undefined;
}

export const NO_RISK_DATA: RiskData = {
  balances: undefined,
  account: undefined,
  buyLimit: undefined,
  marginRatio: undefined,
  error: undefined,
};

/** The balance in `currency`, if listed. */
export function balanceIn(balances: readonly AccountBalance[], currency: string): AccountBalance | undefined {
  for (let index = 0; index < balances.length; index += 1) if (balances[index]!.currency === currency) return balances[index];
  return undefined;
}

/** `signal` withdraws the reads still waiting for their turn: the fetch then fails at once. */
export function fetchRiskData(
  broker: Broker,
  request: OrderRequest,
  clock: Clock,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<RiskData> {
  const currency = currencyOf(marketOf(request.symbol));
  const options = signal === undefined ? {} : { signal };
  // One timer for the three requests (they run in parallel), and a plain promise chain: a backtest places
  // tens of thousands of orders. A broker that throws instead of rejecting counts as a failed fetch.
  let requests: Promise<[readonly AccountBalance[], BuyLimit, MarginRatio]>;
  try {
    requests = Promise.all([
      broker.accountBalance(undefined, options),
      broker.estimateBuyLimit({ symbol: request.symbol, orderType: request.orderType, side: request.side, price: request.price }, options),
      broker.marginRatio(request.symbol, options),
    ]);
  } catch (error) {
    requests = Promise.reject(error);
  }
  return withTimeout(requests, clock, timeoutMs, 'risk figures (account balance, buy-limit estimate, margin ratio)').then(
    ([balances, buyLimit, marginRatio]): RiskData => riskData(balances, buyLimit, marginRatio, currency),
    failedRiskData,
  );
}

/** The same figures from a broker that answers at once. */
export function riskDataNow(answers: ImmediateAnswers, request: OrderRequest): RiskData {
  try {
    const { balances, buyLimit, marginRatio } = answers.riskFigures(request);
    return riskData(balances, buyLimit, marginRatio, currencyOf(marketOf(request.symbol)));
  } catch (error) {
    return failedRiskData(error);
  }
}

function riskData(balances: readonly AccountBalance[], buyLimit: BuyLimit, marginRatio: MarginRatio, currency: string): RiskData {
  return { balances, account: balanceIn(balances, currency) ?? balances[0], buyLimit, marginRatio, error: undefined };
}

function failedRiskData(error: unknown): RiskData {
  return {
    ...NO_RISK_DATA,
    error: { message: error instanceof Error ? error.message : String(error), unknownSymbol: isUnknownSymbolError(error) },
  };
}
