// A paper `trader schedule` with its dashboard, as the command line assembles it (src/cli/schedule/): the
// SessionJobRunner over the real simulator stepped by hand (runner-harness), the ScheduleService with its real
// scheduler and supervisor (trading days from a stub), ScheduleControl reading the account over our HTTP client,
// and startOps serving the page on 127.0.0.1. The wall clock is a VirtualClock that stands still at `startAt`.
import { join } from 'node:path';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { silentLogger } from '../../../src/log/logger.js';
import { configFromEnv } from '../../../src/openapi/config.js';
import { createOpenApiHttp } from '../../../src/openapi/http/client.js';
import { ScheduleControl } from '../../../src/ops/schedule-control.js';
import { startOps, type Ops } from '../../../src/ops/start.js';
import { ScheduleService } from '../../../src/schedule/service.js';
import { OPEN_HTTP } from '../run/paper-harness.js';
import { startRunnerHarness, type RunnerHarness } from '../schedule/runner-harness.js';
import { StubTradingDays } from '../schedule/trading-days.js';

export interface ScheduleOps {
  readonly harness: RunnerHarness;
  readonly service: ScheduleService;
  readonly ops: Ops;
  readonly token: string;
  /** POSTs an action to the dashboard with the token; its status and answer. */
  post(path: string, body?: string): Promise<{ readonly status: number; readonly done: boolean; readonly message: string }>;
  close(): Promise<void>;
}

/** `yaml`: the schedule (its strategy `$STRATEGY`, the runner harness's buy-on-quote). */
export async function startScheduleOps(yaml: string, startAt: string): Promise<ScheduleOps> {
  const clock = new VirtualClock(Date.parse(startAt));
  const harness = await startRunnerHarness({ clock });
  const config = harness.config(yaml);
  const client = createOpenApiHttp(configFromEnv(harness.sim.env), { clock, ...OPEN_HTTP });
  const service = new ScheduleService({
    config,
    clock,
    logger: silentLogger,
    runner: harness.runner,
    journal: harness.runner,
    calendarSource: new StubTradingDays(),
    serveHealth: false,
  });
  const control = new ScheduleControl({
    service,
    jobs: config.jobs,
    mode: 'paper',
    configFile: config.file,
    account: { balances: () => client.accountBalance(), positions: () => client.positions(), orders: () => client.todayOrders() },
    withAccountSession: (work) => harness.runner.withAccountSession(work),
    recordEvent: (type, detail) => harness.runner.recordEvent(type, detail),
    homeCurrency: 'USD',
    timeZone: 'America/New_York',
    notifiers: () => new Map(),
    logger: silentLogger,
  });
  const ops = await startOps({
    control,
    clock,
    logger: silentLogger,
    ui: { host: '127.0.0.1', port: 0, readOnly: false },
    tokenFile: join(config.stateDir, 'ui-token'),
    hub: { refreshEveryMs: 0, refreshGapMs: 0 },
    pushGapMs: 0,
  });
  const token = ops.token?.token ?? '';
  await service.start();
  return {
    harness,
    service,
    ops,
    token,
    async post(path, body) {
      const response = await fetch(`${ops.uiUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        ...(body === undefined ? {} : { body }),
      });
      return { status: response.status, ...((await response.json()) as { done: boolean; message: string }) };
    },
    async close() {
      await service.stop();
      await ops.close();
      control.close();
      await client.close();
      await harness.close();
    },
  };
}
