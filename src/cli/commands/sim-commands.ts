// The `trader` commands of this area (registered by src/cli/main.ts): the simulated broker.
import type { CommandModule } from 'yargs';
import { simCommand } from '../sim/sim-command.js';

// biome-ignore lint/suspicious/noExplicitAny: each command has its own argument type
export const simCommands: readonly CommandModule<object, any>[] = [simCommand];
