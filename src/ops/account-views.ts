// The broker's figures as the dashboard shows them: money to cents, quantities and prices exact, positions
// with their market value and unrealized PnL at the last price known, open orders newest first.
import type { AccountFigures } from './control.js';
import type { BalanceView, OrderView, PositionView } from './view.js';

export function balanceViews(figures: AccountFigures): BalanceView[] {
  return figures.balances.map((balance) => ({
    currency: balance.currency,
    totalCash: balance.totalCash.toFixed(2),
    netAssets: balance.netAssets.toFixed(2),
    buyPower: balance.buyPower.toFixed(2),
  }));
}

export function positionViews(figures: AccountFigures): PositionView[] {
  return figures.positions
    .filter((position) => !position.quantity.isZero())
    .map((position) => {
      const price = figures.prices.get(position.symbol);
      return {
        symbol: position.symbol,
        quantity: position.quantity.toFixed(),
        averageCost: position.costPrice.toFixed(),
        lastPrice: price?.toFixed(),
        marketValue: price?.times(position.quantity).toFixed(2),
        unrealizedPnl: price?.minus(position.costPrice).times(position.quantity).toFixed(2),
        currency: position.currency,
      };
    });
}

export function orderViews(figures: AccountFigures): OrderView[] {
  return [...figures.openOrders]
    .sort((a, b) => b.submittedAt - a.submittedAt)
    .map((order) => ({
      orderId: order.orderId,
      symbol: order.symbol,
      side: order.side,
      orderType: order.orderType,
      quantity: order.quantity.toFixed(),
      price: order.price?.toFixed(),
      executedQuantity: order.executedQuantity.toFixed(),
      status: order.status,
      tag: order.remark,
      submittedAt: new Date(order.submittedAt).toISOString(),
    }));
}
