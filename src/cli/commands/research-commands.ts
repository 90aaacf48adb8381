// The `trader` commands of this area (registered by src/cli/main.ts): parameter search, walk-forward,
// strategy honesty checks and queue workers.
import { lazyCommand } from './lazy-command.js';

export const researchCommands = [
  lazyCommand(
    'optimize <strategy>',
    'Search strategy parameters: backtest every combination on every core (or on queue workers) and rank them',
    async () => (await import('../research/optimize-command.js')).optimizeCommand,
  ),
  lazyCommand(
    'walkforward <strategy>',
    'Walk-forward analysis: optimize on each training window, test the chosen parameters on the next window',
    async () => (await import('../research/walkforward-command.js')).walkForwardCommand,
  ),
  lazyCommand(
    'check <strategy>',
    'Is a strategy honest? Look-ahead, warm-up, determinism and backtest/paper parity checks (exit 1 on failure)',
    async () => (await import('../research/check-command.js')).checkCommand,
  ),
  lazyCommand(
    'worker',
    'Run queued research trials (trader optimize/walkforward --queue) on this machine until stopped',
    async () => (await import('../research/worker-command.js')).workerCommand,
  ),
];
