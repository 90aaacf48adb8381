// A hand-written AccountSource: balances, positions and last prices the test sets, with a count of reads and
// a switch to fail like an unreachable broker.
import type { AccountBalance } from '../../../src/domain/account.js';
import { Decimal, ZERO } from '../../../src/domain/decimal.js';
import type { BrokerPosition } from '../../../src/domain/position.js';
import { parseSymbol, type SecuritySymbol } from '../../../src/domain/symbol.js';
import type { AccountSource } from '../../../src/schedule/account-watch.js';

export function balance(currency: string, netAssets: string): AccountBalance {
  const value = new Decimal(netAssets);
  return {
    currency,
    totalCash: value,
    maxFinanceAmount: ZERO,
    remainingFinanceAmount: ZERO,
    riskLevel: 0,
    marginCall: ZERO,
    netAssets: value,
    initMargin: ZERO,
    maintenanceMargin: ZERO,
    buyPower: value,
    cashInfos: [],
    frozenTransactionFees: [],
  };
}

export function position(symbol: string, quantity: string, costPrice: string, currency: string): BrokerPosition {
  return {
    symbol: parseSymbol(symbol),
    symbolName: symbol,
    quantity: new Decimal(quantity),
    availableQuantity: new Decimal(quantity),
    initQuantity: undefined,
    costPrice: new Decimal(costPrice),
    currency,
    market: symbol.slice(symbol.lastIndexOf('.') + 1),
    accountChannel: 'lb',
  };
}

export class StubAccount implements AccountSource {
  balanceList: AccountBalance[] = [];
  positionList: BrokerPosition[] = [];
  lastPrices = new Map<string, Decimal>();
  failing = false;
  reads = 0;

  async balances(): Promise<readonly AccountBalance[]> {
    this.reads++;
    if (this.failing) throw new Error('broker unreachable');
    return this.balanceList;
  }

  async positions(): Promise<readonly BrokerPosition[]> {
    if (this.failing) throw new Error('broker unreachable');
    return this.positionList;
  }

  async prices(symbols: readonly SecuritySymbol[]): Promise<ReadonlyMap<string, Decimal>> {
    return new Map(symbols.flatMap((symbol) => (this.lastPrices.has(symbol) ? [[symbol, this.lastPrices.get(symbol)!] as const] : [])));
  }
}
