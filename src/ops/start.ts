// Everything that watches a bot, started together for `trader run` and `trader schedule`: the hub, the
// dashboard server (with /metrics), a separate metrics server when asked, and the Telegram bot's commands.
// The command line imports this module only when one of them is wanted, so plain runs load none of it.
import type { Clock } from '../domain/clock.js';
import type { Logger } from '../log/logger.js';
import type { BotControl } from './control.js';
import { OpsHub, type HubOptions } from './hub.js';
import { startOpsServer, type HealthSource, type OpsServer } from './http/server.js';
import type { LogTail } from './log-tail.js';
import { createMetrics, type OpsMetrics } from './metrics.js';
import type { TelegramBot } from './telegram/bot.js';
import { loadOrCreateToken, type UiToken } from './token-file.js';

export interface UiSettings {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly readOnly: boolean;
}

export interface OpsOptions {
  readonly control: BotControl;
  /** Wall clock. */
  readonly clock: Clock;
  readonly logger: Logger;
  readonly logs?: LogTail;
  readonly ui?: UiSettings;
  /** Metrics on a port of their own (same host and token as the dashboard's). */
  readonly metricsPort?: number;
  /** Where the token is kept; needed with a dashboard or a metrics port. */
  readonly tokenFile?: string;
  readonly host?: string;
  readonly telegram?: TelegramBot;
  /** /health and /status, when the dashboard serves the scheduler's health port. */
  readonly health?: HealthSource;
  readonly hub?: Pick<HubOptions, 'refreshEveryMs' | 'refreshGapMs'>;
  readonly pushGapMs?: number;
}

export interface Ops {
  readonly hub: OpsHub;
  readonly token: UiToken | undefined;
  readonly uiUrl: string | undefined;
  readonly metricsUrl: string | undefined;
  close(): Promise<void>;
}

export async function startOps(options: OpsOptions): Promise<Ops> {
  const { control, clock, logger, ui } = options;
  const hub = new OpsHub({
    control,
    clock,
    logger,
    readOnly: ui?.readOnly === true,
    // The service allows 30 calls per 30 s per interface: live, watching takes at most a fifth of that.
    refreshGapMs: control.mode === 'live' ? 5000 : 1000,
    ...(options.logs === undefined ? {} : { logs: options.logs }),
    ...options.hub,
  });
  const closers: (() => Promise<void>)[] = [async () => hub.close()];
  const close = async (): Promise<void> => {
    for (const closer of closers.splice(0).reverse())
      await closer().catch((error: unknown) => logger.warn({ error: String(error) }, 'closing the dashboard failed'));
  };
  try {
    hub.start();
    const serving = ui !== undefined || options.metricsPort !== undefined;
    if (serving && options.tokenFile === undefined) throw new Error('a token file is needed to serve the dashboard or metrics');
    const token = serving ? loadOrCreateToken(options.tokenFile!, logger) : undefined;
    let metrics: OpsMetrics | undefined;
    if (serving) {
      metrics = createMetrics(hub, control);
      const created = metrics;
      closers.push(async () => created.close());
    }
    let dashboard: OpsServer | undefined;
    if (ui !== undefined) {
      dashboard = await startOpsServer({
        host: ui.host,
        port: ui.port,
        token: token!.token,
        clock,
        logger,
        dashboard: { hub, control, readOnly: ui.readOnly, ...(options.logs === undefined ? {} : { logs: options.logs }) },
        ...(metrics === undefined ? {} : { metrics }),
        ...(options.health === undefined ? {} : { health: options.health }),
        ...(options.pushGapMs === undefined ? {} : { pushGapMs: options.pushGapMs }),
      });
      const server = dashboard;
      closers.push(() => server.close());
    }
    let metricsServer: OpsServer | undefined;
    if (options.metricsPort !== undefined) {
      metricsServer = await startOpsServer({
        host: ui?.host ?? options.host ?? '127.0.0.1',
        port: options.metricsPort,
        token: token!.token,
        clock,
        logger,
        ...(metrics === undefined ? {} : { metrics }),
      });
      const server = metricsServer;
      closers.push(() => server.close());
    }
    if (options.telegram !== undefined) {
      const telegram = options.telegram;
      telegram.listen(control, hub);
      closers.push(() => telegram.close());
    }
    return { hub, token, uiUrl: dashboard?.url, metricsUrl: metricsServer?.url, close };
  } catch (error) {
    await close();
    throw error;
  }
}
