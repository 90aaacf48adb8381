// The `trader` commands of this area (registered by src/cli/main.ts): user projects and their files.
import { lazyCommand } from './lazy-command.js';

export const projectCommands = [
  lazyCommand(
    'init <dir>',
    'Create a strategy project in DIR: package.json, tsconfig, an example strategy, sample data, risk and schedule files',
    async () => (await import('../project/init-command.js')).initCommand,
  ),
  lazyCommand(
    'new <kind> <name>',
    'Add a file to the project: `trader new strategy NAME` writes strategies/NAME.ts from a template',
    async () => (await import('../project/new-command.js')).newCommand,
  ),
];
