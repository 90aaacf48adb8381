import { describe, expect, it } from 'vitest';
import { Money, parseSymbol, type AccountBalance, type BrokerPosition, type Fill } from '../../src/domain/index.js';
import { PositionBook } from '../../src/execution/position-book.js';
import { Price, Quantity } from '../../src/domain/index.js';

const AAPL = parseSymbol('AAPL.US');
const TSLA = parseSymbol('TSLA.US');

function brokerPosition(symbol: typeof AAPL, quantity: number, cost: number): BrokerPosition {
  return {
    symbol,
    symbolName: symbol,
    quantity: Quantity.of(quantity),
    availableQuantity: Quantity.of(quantity),
    initQuantity: undefined,
    costPrice: Price.of(cost),
    currency: 'USD',
    market: 'US',
    accountChannel: 'lb',
  };
}

function balance(cash: number): AccountBalance {
  return {
    currency: 'USD',
    totalCash: Money.of(cash, 'USD'),
    maxFinanceAmount: Money.zero('USD'),
    remainingFinanceAmount: Money.zero('USD'),
    riskLevel: 0,
    marginCall: Money.zero('USD'),
    netAssets: Money.of(cash, 'USD'),
    initMargin: Money.zero('USD'),
    maintenanceMargin: Money.zero('USD'),
    buyPower: Money.of(cash, 'USD'),
    cashInfos: [],
    frozenTransactionFees: [],
  };
}

const fill = (side: 'Buy' | 'Sell', quantity: number, price: number): Fill => ({
  fillId: `O:${quantity}`,
  orderId: 'O',
  symbol: AAPL,
  side,
  quantity: Quantity.of(quantity),
  price: Price.of(price),
  time: 0,
  commission: Money.zero('USD'),
});

describe('position book', () => {
  it('moves positions and the cash estimate with fills', () => {
    const book = new PositionBook();
    book.setBalances([balance(10_000)]);

    book.applyFill(fill('Buy', 10, 100));
    book.applyFill(fill('Sell', 4, 110));

    expect(book.quantity(AAPL).toFixed()).toBe('6');
    expect(book.get(AAPL)?.realizedPnl.toFixed()).toBe('40');
    expect(book.cashIn('USD').toFixed()).toBe('9440');
  });

  it('lists differences with the broker, symbols missing on either side counting as flat', () => {
    const book = new PositionBook();
    book.applyFill(fill('Buy', 10, 100));

    expect(
      book
        .compare([brokerPosition(TSLA, 3, 200)])
        .map((difference) => [difference.symbol, difference.expected.toFixed(), difference.reported.toFixed()]),
    ).toEqual([
      ['AAPL.US', '10', '0'],
      ['TSLA.US', '0', '3'],
    ]);
  });

  it("adopts the broker's positions (summing account channels) and keeps realised PnL", () => {
    const book = new PositionBook();
    book.applyFill(fill('Buy', 10, 100));
    book.applyFill(fill('Sell', 5, 120));

    book.adopt([brokerPosition(AAPL, 7, 101), brokerPosition(AAPL, 3, 111)]);

    expect(book.quantity(AAPL).toFixed()).toBe('10');
    expect(book.get(AAPL)?.averageCost.toFixed()).toBe('104');
    expect(book.get(AAPL)?.realizedPnl.toFixed()).toBe('100');
  });

  it('reports cash the broker contradicts only when no fill happened since the last figures', () => {
    const book = new PositionBook();
    book.setBalances([balance(10_000)]);

    expect(book.setBalances([balance(10_500)]).map((difference) => difference.reported.toFixed())).toEqual(['10500']);
    book.applyFill(fill('Buy', 1, 100));
    expect(book.setBalances([balance(10_399)])).toEqual([]);
  });
});
