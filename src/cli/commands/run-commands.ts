// The `trader` commands of this area (registered by src/cli/main.ts): running strategies, paper or live.
import type { CommandModule } from 'yargs';
import { runCommand } from '../run/run-command.js';

export const runCommands: readonly CommandModule<object, any>[] = [runCommand];
