// The `trader` commands of this area (registered by src/cli/main.ts): running strategies, paper or live.
import type { CommandModule } from 'yargs';
import { runCommand } from '../run/run-command.js';

// biome-ignore lint/suspicious/noExplicitAny: each command has its own argument type
export const runCommands: readonly CommandModule<object, any>[] = [runCommand];
