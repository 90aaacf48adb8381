// The `trader` commands of this area (registered by src/cli/main.ts): backtests over candle history.
import type { CommandModule } from 'yargs';
import { backtestCommand } from '../backtest/backtest-command.js';

// biome-ignore lint/suspicious/noExplicitAny: each command has its own argument type
export const backtestCommands: readonly CommandModule<object, any>[] = [backtestCommand];
