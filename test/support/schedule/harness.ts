// A scheduler, supervisor, outage guard and stub runner wired together on a VirtualClock, for status tests.
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { MarketCalendar } from '../../../src/schedule/calendar.js';
import { parseScheduleConfig } from '../../../src/schedule/config.js';
import { OutageGuard } from '../../../src/schedule/outage-guard.js';
import { Scheduler } from '../../../src/schedule/scheduler.js';
import { collectStatus, type PortfolioProvider } from '../../../src/schedule/status.js';
import { Supervisor } from '../../../src/schedule/supervisor.js';
import { StubRunner } from './stub-runner.js';
import { StubTradingDays } from './trading-days.js';

export const HARNESS_CONFIG = `
restart: { maxRestarts: 0, backoff: { jitter: false } }
jobs:
  - name: hk-trend
    strategy: strategies/sma.ts
    symbols: [700.HK]
    start: "30 9 * * 1-5"
    stop: "55 15 * * 1-5"
  - name: hk-data
    task: fetch-data
    symbols: [700.HK]
    cron: "0 18 * * 1-5"
`;

export const FIXED_PORTFOLIO: PortfolioProvider = {
  snapshot: async () => ({
    asOf: '2024-03-05T02:00:00.000Z',
    positions: [
      { symbol: '700.HK', quantity: '200', averageCost: '350.20', marketValue: '71000.00', unrealizedPnl: '960.00', currency: 'HKD' },
    ],
    pnlToday: [{ currency: 'HKD', netAssets: '998960.00', dayStart: '1000000.00', change: '-1040.00' }],
  }),
};

export function statusHarness(startUtc: string, holidays: readonly string[] = [], portfolio: PortfolioProvider = FIXED_PORTFOLIO) {
  const clock = new VirtualClock(Date.parse(startUtc));
  const config = parseScheduleConfig(HARNESS_CONFIG, '/etc/trader/schedule.yaml', { checkFiles: false });
  const calendar = new MarketCalendar({ clock, source: new StubTradingDays(holidays) });
  const scheduler = new Scheduler({ clock, calendar, jobs: config.jobs });
  const runner = new StubRunner(() => clock.now());
  const supervisor = new Supervisor({ clock, runner, jobs: config.jobs });
  supervisor.attach(scheduler.events);
  const link = new OutageGuard({ clock, limitMs: 60_000 });
  const collect = () =>
    collectStatus({ clock, mode: config.mode, configFile: config.file, jobs: config.jobs, scheduler, supervisor, link, portfolio });
  return { clock, scheduler, supervisor, runner, link, collect, config };
}
