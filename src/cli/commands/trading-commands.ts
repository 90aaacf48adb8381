// The `trader` commands of this area (registered by src/cli/main.ts): account, orders and the other OpenAPI calls.
import { lazyCommand } from './lazy-command.js';

const accountModule = () => import('../trading/account-commands.js');
const orderModule = () => import('../trading/order-commands.js');
const executionModule = () => import('../trading/execution-commands.js');
const marketInfoModule = () => import('../trading/market-info-commands.js');

export const tradingCommands = [
  lazyCommand(
    'account',
    'Show the account balance: cash, buy power, margin (per settlement currency)',
    async () => (await accountModule()).accountCommand,
  ),
  lazyCommand(
    'positions [symbols..]',
    'List stock positions, all or only the given symbols',
    async () => (await accountModule()).positionsCommand,
  ),
  lazyCommand('order <action>', 'Submit, show, cancel or replace one order', async () => (await orderModule()).orderCommand),
  lazyCommand('orders', "List today's orders, or past orders with --history", async () => (await orderModule()).ordersCommand),
  lazyCommand(
    'executions',
    "List today's fills, or with --history the fills of past days (today not included)",
    async () => (await executionModule()).executionsCommand,
  ),
  lazyCommand(
    'cash-flow',
    'List the cash and share movements of the account in a time range (newest first, a page at a time)',
    async () => (await executionModule()).cashFlowCommand,
  ),
  lazyCommand(
    'fund-positions [symbols..]',
    'List fund holdings, all or only the given funds (ISIN codes)',
    async () => (await executionModule()).fundPositionsCommand,
  ),
  lazyCommand(
    'buy-limit',
    'Estimate the most one order may buy (or sell short), with cash and with margin',
    async () => (await accountModule()).buyLimitCommand,
  ),
  lazyCommand(
    'margin-ratio <symbol>',
    'Show the initial, maintenance and forced-liquidation margin factors of a symbol',
    async () => (await accountModule()).marginRatioCommand,
  ),
  lazyCommand(
    'watchlist [action]',
    'List the watchlist groups, or create, update or delete one',
    async () => (await marketInfoModule()).watchlistCommand,
  ),
  lazyCommand(
    'securities',
    'List the securities of a market the service offers (names in one language)',
    async () => (await marketInfoModule()).securitiesCommand,
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
  lazyCommand(
    'api <method> <path>',
    'Send one signed request to any OpenAPI path and print the data it answers (JSON)',
    async () => (await import('../trading/api-command.js')).apiCommand,
  ),
];
