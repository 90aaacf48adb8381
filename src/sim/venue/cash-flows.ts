// The account's cash-flow ledger: per fill the settlement of its value, the fees it paid (when any) and the
// shares that moved; and the carry the venue books between fills (dividends paid or charged, a split's shares
// and cash in lieu, the borrow fee of shorts). Summing the cash rows of a currency gives exactly the change in
// that currency's cash.
import type { FixedPoint } from '../../domain/fixed-point.js';
import { Money } from '../../domain/money.js';
import type { Fill } from '../../domain/fill.js';
import { currencyOf, marketOf, type SecuritySymbol } from '../../domain/symbol.js';

/** What moved: cash, or shares of a stock. */
export type CashFlowKind = 'cash' | 'stock';

export interface CashFlow {
  /** `<fill id>:settlement|fees|shares`, or `carry-<n>:dividend|borrow-fee|cash-in-lieu|split`: unique and stable. */
  readonly flowId: string;
  readonly name: string;
  readonly direction: 'in' | 'out';
  readonly kind: CashFlowKind;
  /** Cash in the currency, or a number of shares. */
  readonly amount: FixedPoint;
  readonly currency: string;
  /** Epoch ms of the fill, or of the price the carry was booked before. */
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

/** What the venue booked outside fills; `amount` is signed (negative: taken from the account). */
export type CarryEvent =
  | { readonly kind: 'dividend'; readonly perShare: FixedPoint; readonly held: FixedPoint }
  | { readonly kind: 'cash-in-lieu' | 'split'; readonly ratio: FixedPoint }
  | { readonly kind: 'borrow-fee'; readonly days: number; readonly held: FixedPoint };

/** The cash-flow row of one carry booking (`sequence`: its place among the venue's carry rows). */
export function carryFlow(
  sequence: number,
  symbol: SecuritySymbol,
  time: number,
  event: CarryEvent,
  amount: Money | FixedPoint,
  currency: string,
): CashFlow {
  const incoming = !amount.isNegative();
  const size = incoming ? amount : amount.negated();
  const common = { flowId: `carry-${sequence}:${event.kind}`, currency, time, symbol, direction: incoming ? 'in' : 'out' } as const;
  switch (event.kind) {
    case 'dividend':
      return {
        ...common,
        name: `Dividend ${symbol}`,
        kind: 'cash',
        amount: size,
        description: incoming
          ? `Dividend of ${event.perShare.toFixed()} a share on ${event.held.toFixed()} ${symbol}`
          : `Dividend of ${event.perShare.toFixed()} a share charged on a short of ${event.held.negated().toFixed()} ${symbol}`,
      };
    case 'cash-in-lieu':
      return {
        ...common,
        name: `Cash in lieu ${symbol}`,
        kind: 'cash',
        amount: size,
        description: `Fractional share of a ${event.ratio.toFixed()}-for-1 split of ${symbol} paid in cash`,
      };
    case 'split':
      return {
        ...common,
        name: `Split ${symbol}`,
        kind: 'stock',
        amount: size,
        description: `Shares ${incoming ? 'received' : 'taken'} in a ${event.ratio.toFixed()}-for-1 split of ${symbol}`,
      };
    case 'borrow-fee':
      return {
        ...common,
        name: `Borrow fee ${symbol}`,
        kind: 'cash',
        amount: size,
        description: `Borrow fee for ${event.days} day${event.days === 1 ? '' : 's'} on a short of ${event.held.negated().toFixed()} ${symbol}`,
      };
  }
}
