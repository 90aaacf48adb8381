// A `trader` command known by its name and description alone: its module (flags, handler and everything they
// import) is loaded only when that command runs or shows its --help, so `trader --help` loads none of them.
import type { Argv, CommandModule } from 'yargs';

// biome-ignore lint/suspicious/noExplicitAny: each command has its own argument type
export type AnyCommand = CommandModule<any, any>;

export type LazyCommand = AnyCommand & { readonly load: () => Promise<AnyCommand> };

/**
 * `load` imports the command's module and returns its command object; that object's own `command` and
 * `describe` must equal the ones given here (test/cli/commands.test.ts checks every registered command).
 */
export function lazyCommand(command: string, describe: string, load: () => Promise<AnyCommand>): LazyCommand {
  return {
    load,
    command,
    describe,
    builder: async (yargs: Argv) => {
      const { builder } = await load();
      if (typeof builder === 'function') return builder(yargs);
      return builder === undefined ? yargs : yargs.options(builder);
    },
    handler: async (args) => {
      await (await load()).handler(args);
    },
  };
}
