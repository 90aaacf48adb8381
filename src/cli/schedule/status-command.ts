// `trader status`: what a running `trader schedule` wrote to its state dir: jobs, next fire times, states,
// positions, PnL of the day and the last errors; says plainly when no scheduler is running (exit status 1).
import type { CommandModule } from 'yargs';
import { systemClock } from '../../clock/system-clock.js';
import { loadScheduleConfig } from '../../schedule/config.js';
import { pidAlive, readStatusFile, statusFilePath } from '../../schedule/status-file.js';
import { describeStatus, livenessOf, type TextTable } from '../../schedule/status-format.js';
import { formatTable, printJson } from '../output.js';

interface StatusArgs {
  readonly config?: string | undefined;
  readonly state?: string | undefined;
  readonly json?: boolean | undefined;
}

export const statusCommand: CommandModule<object, StatusArgs> = {
  command: 'status [config]',
  describe: 'Show what a running `trader schedule` is doing: jobs, next fire times, positions, PnL of the day, last errors',
  builder: (yargs) =>
    yargs
      .positional('config', { type: 'string', describe: 'The schedule config file (its stateDir is read); default: --state or ./state' })
      .option('state', { type: 'string', describe: "The scheduler's state dir (default ./state, or the config's stateDir)" })
      .epilogue(
        'Reads the status file the scheduler rewrites every 15 s and on every change. Exit status 0 while the scheduler runs, 1 when it stopped, died or stopped writing (the last status is still shown).',
      )
      .example('$0 status schedule.yaml', 'The status of the schedule of this config')
      .example('$0 status --state /var/lib/trader --json', 'As JSON, for scripts'),
  handler: async (args) => {
    const stateDir =
      args.state ?? (args.config === undefined ? 'state' : (await loadScheduleConfig(args.config, { checkFiles: false })).stateDir);
    const snapshot = await readStatusFile(statusFilePath(stateDir)).catch((error: unknown) => {
      // A script reading --json gets the shape it gets for a stopped scheduler: not running, and why.
      if (args.json !== true || (error as { code?: unknown }).code !== 'NO_STATUS') throw error;
      printJson({ running: false, problem: (error as Error).message });
      return undefined;
    });
    if (snapshot === undefined) {
      process.exitCode = 1;
      return;
    }
    const now = systemClock.now();
    const liveness = livenessOf(snapshot, now, pidAlive);
    if (args.json === true) printJson({ running: liveness.running, problem: liveness.problem, ...snapshot });
    else {
      const report = describeStatus(snapshot, now, liveness);
      const sections = [report.summary.join('\n'), table(report.jobs)];
      if (report.positions.rows.length > 0) sections.push(table(report.positions));
      if (report.pnl.rows.length > 0) sections.push(table(report.pnl));
      process.stdout.write(`${sections.join('\n\n')}\n`);
    }
    if (!liveness.running) process.exitCode = 1;
  },
};

function table(text: TextTable): string {
  return formatTable(text.headers, text.rows);
}
