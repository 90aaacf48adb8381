// Chat messages: plain text (no markup to escape), one fact per line, from the dashboard's state.
import type { DashboardState } from '../view.js';

export const HELP = [
  '/status: mode, kill switch, equity and PnL of the day, jobs, connections',
  '/positions: open positions with unrealized PnL',
  '/orders: open orders',
  '/pause JOB: stop a job (its open orders are cancelled) until resumed (asks to confirm)',
  '/resume JOB: let a paused job run again',
  '/flatten SYMBOL: close a position with a market order (asks to confirm)',
  '/kill [reason]: trip the kill switch (asks to confirm)',
  '/reset: reset the kill switch (asks to confirm)',
].join('\n');

export function statusText(state: DashboardState): string {
  const { bot, account, killSwitch, jobs, connections } = state;
  const lines = [`${bot.kind} ${bot.name} (${bot.mode})${bot.readOnly ? ', read-only' : ''}`];
  lines.push(killSwitch.tripped ? `KILL SWITCH ON since ${killSwitch.at}: ${killSwitch.reason}` : 'kill switch: off');
  for (const balance of account.balances)
    lines.push(`${balance.currency}: net assets ${balance.netAssets}, cash ${balance.totalCash}, buy power ${balance.buyPower}`);
  if (account.dayPnl !== undefined) lines.push(`PnL today: ${account.dayPnl.change} ${account.dayPnl.currency}`);
  if (account.error !== undefined) lines.push(`account figures stale: ${account.error}`);
  for (const job of jobs)
    lines.push(
      `job ${job.name}: ${job.state}${job.next === undefined ? '' : `, next ${job.next.trigger} ${job.next.at}`}${job.lastError === undefined ? '' : ` (last error: ${job.lastError})`}`,
    );
  for (const connection of connections) lines.push(`${connection.name} connection: ${connection.status}`);
  return lines.join('\n');
}

export function positionsText(state: DashboardState): string {
  if (state.positions.length === 0) return 'no open positions';
  return state.positions
    .map(
      (position) =>
        `${position.symbol}: ${position.quantity} @ ${position.averageCost}` +
        (position.lastPrice === undefined ? '' : `, last ${position.lastPrice}, unrealized ${position.unrealizedPnl} ${position.currency}`),
    )
    .join('\n');
}

export function ordersText(state: DashboardState): string {
  if (state.orders.length === 0) return 'no open orders';
  return state.orders
    .map(
      (order) =>
        `${order.orderId}: ${order.side} ${order.quantity} ${order.symbol} ${order.orderType}${order.price === undefined ? '' : ` @ ${order.price}`}, ${order.status}, filled ${order.executedQuantity}${order.tag === '' ? '' : ` [${order.tag}]`}`,
    )
    .join('\n');
}
