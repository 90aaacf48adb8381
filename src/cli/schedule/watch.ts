// The watching side of `trader schedule` (dashboard, metrics, Telegram), loaded only when the flags or the
// config ask for it. The Telegram bot exists before the schedule service (its notifier is one of the
// service's channels); the control and the servers are started once the service exists, before it starts,
// so the page is up while the journal is reconciled. On the health port, the dashboard serves /health and
// /status itself.
import { currencyOf } from '../../domain/symbol.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import type { Clock } from '../../domain/clock.js';
import type { Logger } from '../../log/logger.js';
import type { LogTail, Ops, ScheduleControl } from '../../ops/index.js';
import type { TelegramBot } from '../../ops/telegram/bot.js';
import type { SessionJobRunner } from '../../runtime/job-runner.js';
import type { ScheduleConfig } from '../../schedule/config.js';
import type { NotifierGroup } from '../../schedule/notifier-group.js';
import type { ScheduleService } from '../../schedule/service.js';
import { announceOps } from '../run/announce-ops.js';
import type { OpsFlags } from '../run/ops-flags.js';
import type { ScheduleVenue } from './venue.js';

export interface ScheduleWatch {
  readonly control: ScheduleControl;
  close(): Promise<void>;
}

export async function createScheduleTelegram(flags: OpsFlags | undefined, clock: Clock, logger: Logger): Promise<TelegramBot | undefined> {
  if (flags?.telegram === undefined) return undefined;
  const { createTelegramBot } = await import('../../ops/telegram/bot.js');
  return createTelegramBot({ settings: flags.telegram, clock, logger });
}

export interface ScheduleWatchOptions {
  readonly flags: OpsFlags;
  readonly config: ScheduleConfig;
  readonly service: ScheduleService;
  readonly sessions: SessionJobRunner;
  readonly venue: ScheduleVenue;
  readonly notifiers: NotifierGroup;
  readonly telegram: TelegramBot | undefined;
  /** The dashboard takes the health port: it serves /health and /status. */
  readonly servesHealth: boolean;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly logs: LogTail | undefined;
}

export async function startScheduleWatch(options: ScheduleWatchOptions): Promise<ScheduleWatch> {
  const { flags, config, service, venue, clock, logger } = options;
  const { ScheduleControl, startOps } = await import('../../ops/index.js');
  const market = config.jobs[0]!.market;
  const control = new ScheduleControl({
    service,
    jobs: config.jobs,
    mode: config.mode,
    configFile: config.file,
    account: {
      balances: () => venue.account.balances(),
      positions: () => venue.account.positions(),
      orders: () => venue.orders(),
      ...(venue.account.prices === undefined ? {} : { prices: (symbols) => venue.account.prices!(symbols) }),
    },
    withAccountSession: (work) => options.sessions.withAccountSession(work),
    recordEvent: (type, detail) => options.sessions.recordEvent(type, detail),
    homeCurrency: currencyOf(market),
    timeZone: timeZoneOf(market),
    ...(venue.simulator === undefined ? {} : { marketTime: () => venue.simulator!.marketClock.now() }),
    notifiers: () => options.notifiers.channels(),
    logger,
  });
  control.watchConnection('quote', venue.quotes.state$);
  let ops: Ops;
  try {
    ops = await startOps({
      control,
      clock,
      logger,
      ...(options.logs === undefined ? {} : { logs: options.logs }),
      ...(flags.ui === undefined ? {} : { ui: flags.ui }),
      ...(flags.metricsPort === undefined ? {} : { metricsPort: flags.metricsPort }),
      tokenFile: flags.tokenFile,
      host: flags.host,
      ...(options.telegram === undefined ? {} : { telegram: options.telegram }),
      ...(options.servesHealth ? { health: { status: () => service.status() } } : {}),
    });
  } catch (error) {
    control.close();
    throw error;
  }
  announceOps(ops, flags, logger);
  return {
    control,
    async close() {
      await ops.close();
      control.close();
    },
  };
}
