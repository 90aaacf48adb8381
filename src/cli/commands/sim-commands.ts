// The `trader` commands of this area (registered by src/cli/main.ts): the simulated broker.
import type { CommandModule } from 'yargs';
import { simCommand } from '../sim/sim-command.js';

export const simCommands: readonly CommandModule<object, any>[] = [simCommand];
