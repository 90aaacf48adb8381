// The `trader` commands of this area (registered by src/cli/main.ts): the simulated broker.
import { lazyCommand } from './lazy-command.js';

export const simCommands = [
  lazyCommand(
    'sim',
    'Run the simulated broker (HTTP + quote/trade WebSockets over market replay) until Ctrl-C',
    async () => (await import('../sim/sim-command.js')).simCommand,
  ),
];
