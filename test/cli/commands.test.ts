import { describe, expect, it } from 'vitest';
import { backtestCommands } from '../../src/cli/commands/backtest-commands.js';
import { catalogCommands } from '../../src/cli/commands/catalog-commands.js';
import type { LazyCommand } from '../../src/cli/commands/lazy-command.js';
import { marketCommands } from '../../src/cli/commands/market-commands.js';
import { projectCommands } from '../../src/cli/commands/project-commands.js';
import { runCommands } from '../../src/cli/commands/run-commands.js';
import { scheduleCommands } from '../../src/cli/commands/schedule-commands.js';
import { simCommands } from '../../src/cli/commands/sim-commands.js';
import { tradingCommands } from '../../src/cli/commands/trading-commands.js';

const registered: LazyCommand[] = [
  ...projectCommands,
  ...backtestCommands,
  ...runCommands,
  ...scheduleCommands,
  ...simCommands,
  ...tradingCommands,
  ...marketCommands,
];

describe('lazily registered commands', () => {
  it.each(registered.map((command) => [command.command, command] as const))(
    '%s: the name and description `trader --help` lists are those of the module that runs it',
    async (_name, command) => {
      const module = await command.load();

      expect({ command: module.command, describe: module.describe }).toEqual({ command: command.command, describe: command.describe });
      expect(typeof module.handler).toBe('function');
    },
  );

  it('registers the catalog serve command the same way', () => {
    expect(catalogCommands.map((command) => command.command)).toEqual(['catalog <command>']);
  });
});
