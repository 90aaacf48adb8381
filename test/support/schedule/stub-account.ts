// A hand-written AccountSource: balances, positions and last prices the test sets, with a count of reads and
// a switch to fail like an unreachable broker.
import type { AccountBalance } from '../../../src/domain/account.js';
import type { BrokerPosition } from '../../../src/domain/position.js';
import { parseSymbol, type SecuritySymbol } from '../../../src/domain/symbol.js';
import type { AccountSource } from '../../../src/schedule/account-watch.js';
import { Money, Price, Quantity } from '../../../src/domain/index.js';

export function balance(currency: string, netAssets: string): AccountBalance {
  const value = Money.of(netAssets, currency);
  const zero = Money.zero(currency);
  return {
    currency,
    totalCash: value,
    maxFinanceAmount: zero,
    remainingFinanceAmount: zero,
    riskLevel: 0,
    marginCall: zero,
    netAssets: value,
    initMargin: zero,
    maintenanceMargin: zero,
    buyPower: value,
    cashInfos: [],
    frozenTransactionFees: [],
  };
}

export function position(symbol: string, quantity: string, costPrice: string, currency: string): BrokerPosition {
  return {
    symbol: parseSymbol(symbol),
    symbolName: symbol,
    quantity: Quantity.of(quantity),
    availableQuantity: Quantity.of(quantity),
    initQuantity: undefined,
    costPrice: Price.of(costPrice),
    currency,
    market: symbol.slice(symbol.lastIndexOf('.') + 1),
    accountChannel: 'lb',
  };
}

export class StubAccount implements AccountSource {
  balanceList: AccountBalance[] = [];
  positionList: BrokerPosition[] = [];
  lastPrices = new Map<string, Price>();
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

  async prices(symbols: readonly SecuritySymbol[]): Promise<ReadonlyMap<string, Price>> {
    return new Map(symbols.flatMap((symbol) => (this.lastPrices.has(symbol) ? [[symbol, this.lastPrices.get(symbol)!] as const] : [])));
  }
}
