// The account's cash-flow ledger, derived from the venue's fills (the only thing that moves cash or shares once
// the account is funded): per fill the settlement of its value, the fees it paid (when any) and the shares that
// moved. Summing the cash rows of a currency gives exactly the change in that currency's cash.
import type { FixedPoint } from '../../domain/fixed-point.js';
import { Money } from '../../domain/money.js';
import type { Fill } from '../../domain/fill.js';
import { currencyOf, marketOf, type SecuritySymbol } from '../../domain/symbol.js';

/** What moved: cash, or shares of a stock. */
export type CashFlowKind = 'cash' | 'stock';

export interface CashFlow {
  /** `<fill id>:settlement|fees|shares`, unique and stable. */
  readonly flowId: string;
  readonly name: string;
  readonly direction: 'in' | 'out';
  readonly kind: CashFlowKind;
  /** Cash in the currency, or a number of shares. */
  readonly amount: FixedPoint;
  readonly currency: string;
  /** Epoch ms of the fill. */
  readonly time: number;
  readonly symbol: SecuritySymbol;
  readonly description: string;
}

export function cashFlowsOfFill(fill: Fill): CashFlow[] {
  const currency = currencyOf(marketOf(fill.symbol));
  const buy = fill.side === 'Buy';
  const what = `${fill.quantity.toFixed()} ${fill.symbol} at ${fill.price.toFixed()}, order ${fill.orderId}`;
  const common = { currency, time: fill.time, symbol: fill.symbol };
  const rows: CashFlow[] = [
    {
      ...common,
      flowId: `${fill.fillId}:settlement`,
      name: `${fill.side} ${fill.symbol}`,
      direction: buy ? 'out' : 'in',
      kind: 'cash',
      amount: Money.notional(fill.quantity, fill.price, currency),
      description: `${buy ? 'Paid for' : 'Received for'} ${what}`,
    },
  ];
  if (fill.commission.gt(0)) {
    rows.push({
      ...common,
      flowId: `${fill.fillId}:fees`,
      name: `Fees ${fill.symbol}`,
      direction: 'out',
      kind: 'cash',
      amount: fill.commission,
      description: `Fees of ${what}`,
    });
  }
  rows.push({
    ...common,
    flowId: `${fill.fillId}:shares`,
    name: `${fill.side} ${fill.symbol}`,
    direction: buy ? 'in' : 'out',
    kind: 'stock',
    amount: fill.quantity,
    description: `Shares ${buy ? 'received' : 'delivered'}: ${what}`,
  });
  return rows;
}
