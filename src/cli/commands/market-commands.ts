// The `trader` commands of this area (registered by src/cli/main.ts).
import type { CommandModule } from 'yargs';

export const marketCommands: readonly CommandModule<object, any>[] = [];
