// The `trader` commands of this area (registered by src/cli/main.ts): running strategies, paper or live.
import { lazyCommand } from './lazy-command.js';

export const runCommands = [
  lazyCommand(
    'run <strategy>',
    'Run a strategy: paper trading against the built-in simulator (default), or live with --live --yes',
    async () => (await import('../run/run-command.js')).runCommand,
  ),
];
