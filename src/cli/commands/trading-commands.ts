// The `trader` commands of this area (registered by src/cli/main.ts): account, orders and the other OpenAPI calls.
import { lazyCommand } from './lazy-command.js';

const accounts = () => import('../trading/account-commands.js');
const marketInfo = () => import('../trading/market-info-commands.js');
const orders = () => import('../trading/order-commands.js');

export const tradingCommands = [
  lazyCommand(
    'account',
    'Show the account balance: cash, buy power, margin (per settlement currency)',
    async () => (await accounts()).accountCommand,
  ),
  lazyCommand(
    'positions [symbols..]',
    'List stock positions, all or only the given symbols',
    async () => (await accounts()).positionsCommand,
  ),
  lazyCommand('order <action>', 'Submit, show, cancel or replace one order', async () => (await orders()).orderCommand),
  lazyCommand('orders', "List today's orders, or past orders with --history", async () => (await orders()).ordersCommand),
  lazyCommand(
    'buy-limit',
    'Estimate the most one order may buy (or sell short), with cash and with margin',
    async () => (await accounts()).buyLimitCommand,
  ),
  lazyCommand(
    'margin-ratio <symbol>',
    'Show the initial, maintenance and forced-liquidation margin factors of a symbol',
    async () => (await accounts()).marginRatioCommand,
  ),
  lazyCommand('watchlist', 'List the watchlist groups and their securities', async () => (await marketInfo()).watchlistCommand),
  lazyCommand(
    'securities',
    'List the securities of a market the service offers (names in one language)',
    async () => (await marketInfo()).securitiesCommand,
  ),
  lazyCommand(
    'statements <action>',
    'List account statements or get the download URL of one',
    async () => (await import('../trading/statement-commands.js')).statementsCommand,
  ),
  lazyCommand(
    'topics <action>',
    'Community topics: yours, one in full, create, replies, reply',
    async () => (await import('../trading/topic-commands.js')).topicsCommand,
  ),
  lazyCommand('token <action>', 'Access token lifetime: refresh', async () => (await import('../trading/token-commands.js')).tokenCommand),
];
