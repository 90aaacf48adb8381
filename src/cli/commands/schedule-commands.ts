// The `trader` commands of this area (registered by src/cli/main.ts): unattended schedules and their status.
import type { CommandModule } from 'yargs';
import { scheduleCommand } from '../schedule/schedule-command.js';
import { statusCommand } from '../schedule/status-command.js';

// biome-ignore lint/suspicious/noExplicitAny: each command has its own argument type
export const scheduleCommands: readonly CommandModule<object, any>[] = [scheduleCommand, statusCommand];
