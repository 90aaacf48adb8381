// The `trader` commands of this area (registered by src/cli/main.ts): backtests over candle history.
import { lazyCommand } from './lazy-command.js';

export const backtestCommands = [
  lazyCommand(
    'backtest <strategy>',
    'Run a strategy over candle history (the same strategy, risk and executor code as `trader run`)',
    async () => (await import('../backtest/backtest-command.js')).backtestCommand,
  ),
];
