// `trader schedule CONFIG`: the command's flags, help and examples; the work is in schedule-action.ts.
import type { CommandModule } from 'yargs';
import { DEFAULT_UI_PORT } from '../run/ops-flags.js';
import { scheduleAction, type ScheduleArgs } from './schedule-action.js';

export const scheduleCommand: CommandModule<object, ScheduleArgs> = {
  command: 'schedule <config>',
  describe: 'Run strategies and tasks unattended on cron times and market calendars (paper or live, per the config)',
  builder: (yargs) =>
    yargs
      .positional('config', { type: 'string', demandOption: true, describe: 'Schedule config file (YAML or JSON), e.g. schedule.yaml' })
      .option('health-port', {
        type: 'number',
        describe: 'Serve GET /health (200 healthy, 503 not) and GET /status as JSON on 127.0.0.1:PORT (0 picks a free port)',
      })
      .option('state', {
        type: 'string',
        describe: "State dir (status file, trading-days cache, paper account, token) instead of the config's stateDir",
      })
      .option('json-logs', {
        type: 'boolean',
        describe: 'Log JSON lines on stderr even on a terminal (they are JSON whenever stderr is not one)',
      })
      .option('ui', {
        type: 'string',
        describe: `Serve the live dashboard (and /metrics): on the health port when there is one (it then serves /health and /status too), else ${DEFAULT_UI_PORT}, or --ui=PORT; config key ui:`,
      })
      .option('ui-host', { type: 'string', describe: 'Listen on this address instead of 127.0.0.1 (put TLS in front: see the README)' })
      .option('ui-token-file', {
        type: 'string',
        describe: "The dashboard's token (made on first start, mode 600, shown once); default STATE/ui-token",
      })
      .option('ui-read-only', { type: 'boolean', describe: 'The dashboard shows everything and does nothing' })
      .option('metrics-port', { type: 'number', describe: 'Serve /metrics (OpenMetrics, same token) on a port of its own' })
      .option('telegram-chat', {
        type: 'string',
        array: true,
        describe: 'Telegram chat id to notify and obey (repeatable; config key telegram.chats); token from TELEGRAM_BOT_TOKEN',
      })
      .epilogue(
        'Jobs fire on their cron times in their time zone, only on trading days of their market (from the service, cached; ' +
          'holidays are skipped and logged, half days close windows early). A start/stop job runs its strategy from start to stop; ' +
          'a cron job runs its strategy until it completes and its orders are done (at most runFor), or runs a task (fetch-data). ' +
          'Crashed runs restart with backoff; repeated crashes halt the job for the day. The kill switch (risk dailyLossLimit, ' +
          'maxDrawdown) halts every job for the day and cancels open orders; a socket outage longer than outageLimit holds new ' +
          'orders back until the link and a reconciliation are back. On start the journal is reconciled with the broker and ' +
          'windows open now are resumed. SIGTERM or Ctrl-C stops every run gracefully, flushes the journal and exits 0. ' +
          'See `trader status` for what a running scheduler is doing.',
      )
      .example('$0 schedule schedule.yaml', 'Run the schedule (paper unless the config says mode: live)')
      .example('$0 schedule examples/schedule.yaml', 'The bundled paper example: SPX.US on US trading days')
      .example(
        '$0 schedule schedule.yaml --health-port 8080 --json-logs',
        'With a health endpoint, logging JSON lines (e.g. under systemd)',
      )
      .example('$0 schedule schedule.yaml --health-port 8080 --ui', 'The dashboard and /metrics on the health port 8080 (token needed)'),
  handler: async (args) => {
    await scheduleAction(args);
  },
};
