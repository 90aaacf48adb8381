// The watching side of `trader run` (dashboard, metrics, Telegram), assembled around a started session: the
// run's control, the hub and servers, the chat bot, and the token shown once on the terminal when it is new.
// Loaded only when one of --ui, --metrics-port, --telegram-chat is given.
import { currencyOf, marketOf } from '../../domain/symbol.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import type { Clock } from '../../domain/clock.js';
import type { Logger } from '../../log/logger.js';
import type { LogTail, ManualGate, Ops } from '../../ops/index.js';
import { RunControl, startOps } from '../../ops/index.js';
import type { TelegramBot } from '../../ops/telegram/bot.js';
import type { Session } from '../../runtime/session.js';
import { AccountDay } from '../../schedule/account-day.js';
import type { PreparedStrategy } from '../../strategy/prepare.js';
import { sleep } from '../../clock/sleep.js';
import { announceOps } from './announce-ops.js';
import type { OpsFlags } from './ops-flags.js';

export interface RunWatch {
  /** The run is stopping: connections closing now are no news; the page and commands go away. */
  beforeStop(): Promise<void>;
  /** After the run stopped: what is left to notify is sent (within 5 s), then everything is closed. */
  close(): Promise<void>;
}

export interface RunWatchOptions {
  readonly flags: OpsFlags;
  readonly session: Session;
  readonly gate: ManualGate;
  readonly strategy: PreparedStrategy;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly logs: LogTail | undefined;
  readonly tokenExpiresAt: number | undefined;
  /** Where the day's first readings are kept (beside the journal), so a restart keeps the day's PnL. */
  readonly dayFile: string;
}

export async function startRunWatch(options: RunWatchOptions): Promise<RunWatch> {
  const { flags, session, clock, logger } = options;
  const market = marketOf(options.strategy.symbols[0]!);
  let telegram: TelegramBot | undefined;
  if (flags.telegram !== undefined) {
    const { createTelegramBot } = await import('../../ops/telegram/bot.js');
    telegram = createTelegramBot({ settings: flags.telegram, clock, logger });
  }
  const control = new RunControl({
    session,
    gate: options.gate,
    strategy: options.strategy.name,
    clock,
    logger,
    homeCurrency: currencyOf(market),
    timeZone: timeZoneOf(market),
    day: new AccountDay({ market, file: options.dayFile, logger }),
    ...(telegram === undefined ? {} : { notifier: telegram.notifier }),
    ...(options.tokenExpiresAt === undefined ? {} : { tokenExpiresAt: options.tokenExpiresAt }),
  });
  control.start();
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
      ...(telegram === undefined ? {} : { telegram }),
    });
  } catch (error) {
    control.close();
    telegram?.notifier.close();
    throw error;
  }
  announceOps(ops, flags, logger);
  let stopped = false;
  const beforeStop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    control.stopping = true;
    await ops.close();
  };
  return {
    beforeStop,
    async close() {
      await beforeStop();
      control.close();
      if (telegram !== undefined) {
        const grace = new AbortController();
        await Promise.race([telegram.notifier.drain(), sleep(clock, 5000, grace.signal).catch(() => undefined)]);
        grace.abort();
        telegram.notifier.close();
      }
    },
  };
}
