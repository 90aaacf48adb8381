// `trader schedule CONFIG`: checks the config and every strategy file (all problems at once), opens the
// account (the paper simulator or the live service), wires the schedule service to the strategy runtime
// (one session per run, sharing the account and the journal) and the fetch-data task, and runs until
// SIGTERM / Ctrl-C: then every run stops gracefully, journals are flushed, and the exit status is 0.
import { reportUnhandledStreamErrors } from '../../strategy/unhandled-errors.js';
import path from 'node:path';
import { systemClock } from '../../clock/system-clock.js';
import { InvalidInputError } from '../../domain/errors.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import { createLogger, type Logger } from '../../log/logger.js';
import { riskConfigSchema, type RiskLimits } from '../../risk/config.js';
import { loadJobStrategy, SessionJobRunner } from '../../runtime/job-runner.js';
import { loadScheduleConfig, type ScheduleConfig, type StrategyJobSpec, type StrategyProblem } from '../../schedule/config.js';
import { loadStrategy } from '../../strategy/index.js';
import { routeJobs } from '../../schedule/job-router.js';
import { WebhookNotifier } from '../../schedule/notifier.js';
import { NotifierGroup } from '../../schedule/notifier-group.js';
import type { ManagedNotifier } from '../../schedule/queued-notifier.js';
import { opsFlags, type OpsArgs, type OpsFlags } from '../run/ops-flags.js';
import { ScheduleService } from '../../schedule/service.js';
import { untilInterrupted } from '../market/socket-session.js';
import { FetchTaskRunner } from './fetch-task.js';
import { openScheduleVenue } from './venue.js';
import { createScheduleTelegram, startScheduleWatch, type ScheduleWatch } from './watch.js';

export interface ScheduleArgs extends OpsArgs {
  readonly config: string;
  readonly 'health-port'?: number | undefined;
  readonly state?: string | undefined;
  readonly 'json-logs'?: boolean | undefined;
  readonly verbose?: boolean | undefined;
  readonly json?: boolean | undefined;
}

export async function scheduleAction(args: ScheduleArgs): Promise<void> {
  // It prints no result: what it reports is its log and its status, which have JSON forms of their own.
  if (args.json === true)
    throw new InvalidInputError(
      '--json: trader schedule prints no result; --json-logs logs JSON lines, and `trader status --json` gives its status as JSON',
      '--json',
    );
  const healthPort = args['health-port'];
  if (healthPort !== undefined && (!Number.isInteger(healthPort) || healthPort < 0 || healthPort > 65_535)) {
    throw new InvalidInputError(
      `--health-port: must be a port number from 0 to 65535 (0 picks a free one), got ${String(healthPort)}`,
      '--health-port',
    );
  }
  const config = await loadScheduleConfig(args.config, {
    riskSchema: riskConfigSchema,
    checkStrategy: strategyProblem,
    ...(args.state === undefined ? {} : { stateDir: args.state }),
  });
  const watchFlags = watchSettings(args, config, healthPort);
  // The dashboard, metrics and chat are loaded only when asked for.
  const logs = watchFlags?.ui === undefined ? undefined : new (await import('../../ops/log-tail.js')).LogTail();
  const logger = createLogger({
    level: args.verbose === true ? 'debug' : (process.env['LOG_LEVEL'] ?? 'info'),
    pretty: process.stderr.isTTY === true && args['json-logs'] !== true,
    singleLine: true,
    ...(logs === undefined ? {} : { tee: logs }),
  });
  const symbols = await checkStrategies(config);

  // Listening before anything starts, and before the first line (a supervisor may stop us as soon as it sees
  // it): an early Ctrl-C stops the schedule as soon as it is up, or its start while the paper data is read.
  const stopRequested = new AbortController();
  const interrupted = untilInterrupted(stopRequested.signal);
  announce(logger, config);
  const clock = systemClock;
  const startCut = new AbortController();
  void interrupted.then(() => startCut.abort(new Error('stopped while starting')));
  const venue = await openScheduleVenue({ config, symbols, clock, logger, signal: startCut.signal }).catch((error: unknown) => {
    if (startCut.signal.aborted) return undefined;
    throw error;
  });
  if (venue === undefined) {
    logger.info('stopped while starting: the paper data was not all read; nothing was left running');
    return;
  }
  let watch: ScheduleWatch | undefined;
  try {
    const channels = new Map<string, ManagedNotifier>();
    if (config.notify !== undefined)
      channels.set(
        'webhook',
        new WebhookNotifier({ clock, url: config.notify.webhook, ...config.notify, logger: logger.child({ component: 'webhook' }) }),
      );
    const telegram = await createScheduleTelegram(watchFlags, clock, logger);
    if (telegram !== undefined) channels.set('telegram', telegram.notifier);
    const notifier = channels.size === 0 ? undefined : new NotifierGroup(channels);
    const servesHealth = watchFlags?.ui !== undefined && (healthPort ?? config.healthPort) === watchFlags.ui.port;
    // The runner asks the service (built next) before each order, and tells it about each session's link.
    let service: ScheduleService | undefined;
    let links = 0;
    const sessions = new SessionJobRunner({
      venue: () => venue.sessionVenue(),
      journalFile: config.journal,
      risk: config.risk as RiskLimits,
      logger,
      clock,
      gate: { blocked: () => service?.ordersBlocked() },
      onSession: (job, session) => {
        const unwatchLink = service?.links.watch(
          `${job?.name ?? 'reconciliation'} trade connection #${++links}`,
          session.link.trade.state$,
        );
        const unwatchOps = watch?.control.watchSession(job, session);
        return () => {
          unwatchLink?.();
          unwatchOps?.();
        };
      },
    });
    service = new ScheduleService({
      config,
      clock,
      logger,
      runner: routeJobs({ strategy: sessions, task: new FetchTaskRunner(venue.quotes, clock, logger) }),
      journal: sessions,
      calendarSource: venue.quotes,
      account: venue.account,
      ...(notifier === undefined ? {} : { notifier }),
      ...(venue.token === undefined ? {} : { token: venue.token }),
      ...(healthPort === undefined ? {} : { healthPort }),
      serveHealth: !servesHealth,
    });
    service.links.watch('quote connection', venue.quotes.state$);
    if (watchFlags !== undefined)
      watch = await startScheduleWatch({
        flags: watchFlags,
        config,
        service,
        sessions,
        venue,
        notifiers: notifier ?? new NotifierGroup(new Map()),
        telegram,
        servesHealth,
        clock,
        logger,
        logs,
      });
    await runUntilInterrupted(service, interrupted, stopRequested, logger);
  } finally {
    await watch?.close();
    await venue.close();
  }
}

async function runUntilInterrupted(
  service: ScheduleService,
  interrupted: Promise<void>,
  stopRequested: AbortController,
  logger: Logger,
): Promise<void> {
  try {
    await service.start();
  } catch (error) {
    // What did start (status file, timers, connections) is wound down, so the process can exit with the error.
    stopRequested.abort();
    await service.stop();
    throw error;
  }
  await interrupted;
  stopRequested.abort();
  logger.info('stopping: every run winds down (orders stay as they are), then the journal is flushed');
  const forceExit = (): void => {
    process.stderr.write(
      'error: interrupted again: exiting now; the journal holds everything recorded so far, the next start reconciles the rest\n',
    );
    process.exit(130);
  };
  process.once('SIGINT', forceExit);
  process.once('SIGTERM', forceExit);
  await service.stop();
  process.off('SIGINT', forceExit);
  process.off('SIGTERM', forceExit);
  logger.info('stopped; journal flushed');
}

/** The dashboard, metrics and Telegram as the flags and the config's `ui:` and `telegram:` keys ask. */
function watchSettings(args: ScheduleArgs, config: ScheduleConfig, healthPort: number | undefined): OpsFlags | undefined {
  const ui = config.ui;
  return opsFlags(args, process.env, {
    tokenFile: ui?.tokenFile ?? path.join(config.stateDir, 'ui-token'),
    uiPort: ui?.port ?? healthPort ?? config.healthPort,
    uiOn: ui !== undefined,
    host: ui?.host,
    readOnly: ui?.readOnly,
    metricsPort: ui?.metricsPort,
    telegramChats: config.telegram?.chats,
    telegramApiRoot: config.telegram?.apiRoot,
  });
}

/** A job's strategy loaded with the job's symbols, period and params: what is wrong with it, if anything. */
async function strategyProblem(job: StrategyJobSpec): Promise<StrategyProblem | undefined> {
  try {
    // Its own subscriptions' errors are reported in one line rather than crashing the process.
    reportUnhandledStreamErrors();
    await loadStrategy(job.path, {
      ...(job.params === undefined ? {} : { params: job.params }),
      ...(job.symbols === undefined ? {} : { symbols: job.symbols }),
      ...(job.period === undefined ? {} : { period: job.period }),
    });
    return undefined;
  } catch (error) {
    const key = error instanceof InvalidInputError && error.field === 'params' ? 'params' : 'strategy';
    return { key, message: error instanceof Error ? error.message : String(error) };
  }
}

/** Loads every strategy job's strategy with its overrides (all problems at once); returns every symbol traded. */
async function checkStrategies(config: ScheduleConfig): Promise<SecuritySymbol[]> {
  const symbols = new Set<SecuritySymbol>();
  const problems: string[] = [];
  for (const job of config.jobs) {
    if (job.target.kind === 'task') {
      for (const symbol of job.symbols) symbols.add(symbol);
      continue;
    }
    try {
      for (const symbol of (await loadJobStrategy(job)).symbols) symbols.add(symbol);
    } catch (error) {
      problems.push(`job ${job.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (problems.length > 0)
    throw new InvalidInputError(
      `${config.file}: ${problems.length === 1 ? 'a strategy cannot be used' : `${problems.length} strategies cannot be used`}:\n  ${problems.join('\n  ')}`,
      'strategy',
    );
  return [...symbols];
}

function announce(logger: Logger, config: ScheduleConfig): void {
  const what = { config: config.file, journal: config.journal, stateDir: config.stateDir, jobs: config.jobs.map((job) => job.name) };
  if (config.mode === 'live')
    logger.warn(what, `LIVE schedule: ${config.jobs.length} job(s) place real orders on the account of the LONGPORT_* settings`);
  else logger.info(what, `paper schedule: ${config.jobs.length} job(s) against the built-in simulator`);
}
