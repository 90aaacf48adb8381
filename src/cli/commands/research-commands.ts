// The `trader` commands of this area (registered by src/cli/main.ts): parameter search, walk-forward,
// strategy honesty checks and queue workers. Each command module is loaded only when it runs.
import type { CommandModule } from 'yargs';
import { checkCommand } from '../research/check-command.js';
import { workerCommand } from '../research/worker-command.js';
import { optimizeCommand } from '../research/optimize-command.js';
import { walkForwardCommand } from '../research/walkforward-command.js';

// biome-ignore lint/suspicious/noExplicitAny: each command has its own argument type
export const researchCommands: readonly CommandModule<object, any>[] = [optimizeCommand, walkForwardCommand, checkCommand, workerCommand];
