// The whole schedule service on a VirtualClock: its real scheduler, supervisor, calendar, outage guard, account
// watch, status file and webhook notifier (to a real local HTTP server), with hand-written stubs for the
// trading side (StubRunner, a recording journal port, StubAccount, StubTradingDays).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { silentLogger } from '../../../src/log/logger.js';
import { riskConfigSchema } from '../../../src/risk/config.js';
import { parseScheduleConfig } from '../../../src/schedule/config.js';
import { WebhookNotifier } from '../../../src/schedule/notifier.js';
import { ScheduleService, type JournalPort, type ScheduleServiceOptions } from '../../../src/schedule/service.js';
import { StubAccount } from './stub-account.js';
import { StubRunner } from './stub-runner.js';
import { StubTradingDays } from './trading-days.js';
import { WebhookServer } from './webhook-server.js';

/** Everything the trading side was asked, in order, with the run starts: "reconcile", "cancel-all", "start hk-trend". */
export class RecordingJournal implements JournalPort {
  constructor(private readonly log: string[]) {}

  async reconcileJournal(options: { readonly cancelOpenOrders?: boolean } = {}): Promise<number> {
    this.log.push(options.cancelOpenOrders === true ? 'cancel-all' : 'reconcile');
    return 0;
  }

  async reconcileAll(): Promise<void> {
    this.log.push('reconcile-running');
  }
}

export interface ServiceHarness {
  readonly clock: VirtualClock;
  readonly service: ScheduleService;
  readonly runner: StubRunner;
  readonly account: StubAccount;
  readonly webhook: WebhookServer;
  readonly notifier: WebhookNotifier;
  readonly stateDir: string;
  /** Trading-side calls and run starts, in order. */
  readonly log: string[];
  close(): Promise<void>;
}

export interface ServiceHarnessOptions {
  readonly startUtc: string;
  /** The config without stateDir and notify (filled in). */
  readonly yaml: string;
  readonly holidays?: readonly string[];
  readonly halfDays?: readonly string[];
  readonly overrides?: Partial<ScheduleServiceOptions>;
}

export async function startServiceHarness(options: ServiceHarnessOptions): Promise<ServiceHarness> {
  const stateDir = mkdtempSync(path.join(tmpdir(), 'schedule-service-'));
  const clock = new VirtualClock(Date.parse(options.startUtc));
  const webhook = new WebhookServer();
  const url = await webhook.start();
  const yaml = `stateDir: ${stateDir}\nnotify: { webhook: "${url}", retry: { attempts: 2, initialDelay: 1s } }\n${options.yaml}`;
  const config = parseScheduleConfig(yaml, path.join(stateDir, 'schedule.yaml'), { checkFiles: false, riskSchema: riskConfigSchema });
  const log: string[] = [];
  const runner = new StubRunner(() => clock.now());
  const account = new StubAccount();
  const notifier = new WebhookNotifier({ clock, url, attempts: 2, initialDelayMs: 1000 });
  const service = new ScheduleService({
    config,
    clock,
    logger: silentLogger,
    runner: {
      start: (job, context) => {
        log.push(`start ${job.name} (${context.reason})`);
        return runner.start(job, context);
      },
    },
    journal: new RecordingJournal(log),
    calendarSource: new StubTradingDays(options.holidays ?? [], options.halfDays ?? []),
    account,
    notifier,
    // Rewrites without changes are for liveness only; weeks of virtual time would mean thousands of them.
    statusEveryMs: 3_600_000,
    ...options.overrides,
  });
  return {
    clock,
    service,
    runner,
    account,
    webhook,
    notifier,
    stateDir,
    log,
    async close() {
      await service.stop();
      await webhook.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
