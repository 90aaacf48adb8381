// The `trader` commands of this area (registered by src/cli/main.ts): account, orders and the other OpenAPI calls.
import type { CommandModule } from 'yargs';
import { accountCommand, buyLimitCommand, marginRatioCommand, positionsCommand } from '../trading/account-commands.js';
import { apiCommand } from '../trading/api-command.js';
import { cashFlowCommand, executionsCommand, fundPositionsCommand } from '../trading/execution-commands.js';
import { securitiesCommand, watchlistCommand } from '../trading/market-info-commands.js';
import { orderCommand, ordersCommand } from '../trading/order-commands.js';
import { statementsCommand } from '../trading/statement-commands.js';
import { tokenCommand } from '../trading/token-commands.js';
import { topicsCommand } from '../trading/topic-commands.js';

// biome-ignore lint/suspicious/noExplicitAny: each command has its own argument type
export const tradingCommands: readonly CommandModule<object, any>[] = [
  accountCommand,
  positionsCommand,
  orderCommand,
  ordersCommand,
  executionsCommand,
  cashFlowCommand,
  fundPositionsCommand,
  buyLimitCommand,
  marginRatioCommand,
  watchlistCommand,
  securitiesCommand,
  statementsCommand,
  topicsCommand,
  tokenCommand,
  apiCommand,
];
