// A paper `trader run` with its dashboard, as the command line assembles it: a controlled strategy whose
// session asks a ManualGate, the real simulator stepped by hand (paper-harness), RunControl, and startOps
// serving the page on 127.0.0.1 with a token file in a temp folder. The VirtualClock of the session is the wall clock of the
// hub and the server too; their reads and pushes follow events, never timers.
import { join } from 'node:path';
import { createLogger } from '../../../src/log/logger.js';
import { LogTail } from '../../../src/ops/log-tail.js';
import { ManualGate } from '../../../src/ops/manual-gate.js';
import { RunControl } from '../../../src/ops/run-control.js';
import { AccountDay } from '../../../src/schedule/account-day.js';
import { startOps, type Ops } from '../../../src/ops/start.js';
import type { QueuedNotifier } from '../../../src/schedule/queued-notifier.js';
import type { RiskLimits } from '../../../src/risk/config.js';
import { AAPL, wavingDays } from '../run/candles.js';
import { controlledStrategy, type ControlledStrategy } from '../run/controlled-strategy.js';
import { startPaperHarness, tempFolder, type PaperHarness } from '../run/paper-harness.js';
import type { TelegramBot } from '../../../src/ops/telegram/bot.js';

export interface RunOps {
  readonly harness: PaperHarness;
  readonly strategy: ControlledStrategy;
  readonly gate: ManualGate;
  readonly control: RunControl;
  readonly ops: Ops;
  readonly logs: LogTail;
  readonly token: string;
  readonly tokenFile: string;
  /** The page's address with the token in its fragment. */
  readonly pageUrl: string;
  close(): Promise<void>;
}

export interface RunOpsOptions {
  readonly readOnly?: boolean;
  readonly risk?: RiskLimits;
  readonly ui?: boolean;
  readonly metricsPort?: number;
  readonly telegram?: (logger: ReturnType<typeof createLogger>, clock: PaperHarness['clock']) => TelegramBot;
  readonly notifier?: QueuedNotifier;
  /** A live run's access token expiry, on the session's clock. */
  readonly tokenExpiresAt?: number;
  /** Reuse a journal and its paper account (a restart); fresh temp files otherwise. */
  readonly journalFile?: string;
  readonly stateFile?: string;
  /** Keep the day's first readings here, as `trader run` does beside its journal. */
  readonly dayFile?: string;
}

export async function startRunOps(options: RunOpsOptions = {}): Promise<RunOps> {
  const logs = new LogTail();
  const logger = createLogger({ level: 'info', destination: logs });
  const strategy = controlledStrategy(AAPL, 'dip-buyer');
  const gate = new ManualGate();
  const harness = await startPaperHarness({
    strategies: [strategy.strategy],
    gate,
    candles: [wavingDays(40)],
    logger,
    ...(options.risk === undefined ? {} : { risk: options.risk }),
    ...(options.journalFile === undefined ? {} : { journalFile: options.journalFile }),
    ...(options.stateFile === undefined ? {} : { stateFile: options.stateFile }),
  });
  const telegram = options.telegram?.(logger, harness.clock);
  const notifier = telegram?.notifier ?? options.notifier;
  const control = new RunControl({
    session: harness.session,
    gate,
    strategy: 'dip-buyer',
    clock: harness.clock,
    logger,
    homeCurrency: 'USD',
    timeZone: 'America/New_York',
    ...(options.dayFile === undefined ? {} : { day: new AccountDay({ market: 'US', file: options.dayFile, logger }) }),
    ...(notifier === undefined ? {} : { notifier }),
    ...(options.tokenExpiresAt === undefined ? {} : { tokenExpiresAt: options.tokenExpiresAt }),
  });
  control.start();
  const tokenFile = join(await tempFolder(), 'state', 'ui-token');
  const ops = await startOps({
    control,
    clock: harness.clock,
    logger,
    logs,
    ...(options.ui === false ? {} : { ui: { host: '127.0.0.1', port: 0, readOnly: options.readOnly === true } }),
    ...(options.metricsPort === undefined ? {} : { metricsPort: options.metricsPort }),
    tokenFile,
    ...(telegram === undefined ? {} : { telegram }),
    hub: { refreshEveryMs: 0, refreshGapMs: 0 },
    pushGapMs: 0,
  });
  const token = ops.token?.token ?? '';
  return {
    harness,
    strategy,
    gate,
    control,
    ops,
    logs,
    token,
    tokenFile,
    pageUrl: `${ops.uiUrl ?? ''}/#token=${token}`,
    async close() {
      await ops.close();
      control.close();
      await harness.stop();
      notifier?.close();
    },
  };
}
