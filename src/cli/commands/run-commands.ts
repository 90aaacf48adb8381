// The `trader` commands of this area (registered by src/cli/main.ts).
import type { CommandModule } from 'yargs';

export const runCommands: readonly CommandModule<object, any>[] = [];
