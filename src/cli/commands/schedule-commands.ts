// The `trader` commands of this area (registered by src/cli/main.ts): unattended schedules and their status.
import { lazyCommand } from './lazy-command.js';

export const scheduleCommands = [
  lazyCommand(
    'schedule <config>',
    'Run strategies and tasks unattended on cron times and market calendars (paper or live, per the config)',
    async () => (await import('../schedule/schedule-command.js')).scheduleCommand,
  ),
  lazyCommand(
    'status [config]',
    'Show what a running `trader schedule` is doing: jobs, next fire times, positions, PnL of the day, last errors',
    async () => (await import('../schedule/status-command.js')).statusCommand,
  ),
];
