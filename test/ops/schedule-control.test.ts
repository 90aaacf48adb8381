// The schedule's control as the hub sees it: connections followed before the dashboard started (the
// scheduler's own quote connection is followed first) are shown with the state they are in, and their changes
// after; the day's PnL counts from the schedule's kept day start (the kill switch's), also after a restart. A
// person's actions in the schedule's journal: schedule-control-journal.test.ts.
import { BehaviorSubject, Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { Money, type AccountBalance } from '../../src/domain/index.js';
import { silentLogger } from '../../src/log/logger.js';
import type { ConnectionState } from '../../src/openapi/socket/connection-state.js';
import { OpsHub } from '../../src/ops/hub.js';
import { createMetrics, type OpsMetrics } from '../../src/ops/metrics.js';
import { ScheduleControl, type ScheduleControlOptions } from '../../src/ops/schedule-control.js';
import type { ScheduleService } from '../../src/schedule/service.js';
import { balance } from '../support/ops/stub-control.js';

const T0 = Date.parse('2024-06-03T14:00:00Z');
let hub: OpsHub | undefined;
let metrics: OpsMetrics | undefined;
let control: ScheduleControl | undefined;
afterEach(() => {
  metrics?.close();
  hub?.close();
  control?.close();
});

/** Just what the control reads of the service: no jobs, no kill switch, and the account watch's day start. */
function stubService(dayStart?: Money): ScheduleService {
  return {
    supervisor: { changes: new Subject<void>(), killSwitch: undefined, status: () => [] },
    scheduler: { events: new Subject<unknown>() },
    account: { dayStart: (currency: string) => (currency === dayStart?.currency ? dayStart : undefined) },
  } as unknown as ScheduleService;
}

function scheduleControl(options: { dayStart?: Money; balances?: readonly AccountBalance[] } = {}): ScheduleControl {
  return new ScheduleControl(scheduleOptions(options));
}

function scheduleOptions(options: { dayStart?: Money; balances?: readonly AccountBalance[] } = {}): ScheduleControlOptions {
  return {
    service: stubService(options.dayStart),
    jobs: [],
    mode: 'paper',
    configFile: 'schedule.yaml',
    account: { balances: async () => options.balances ?? [], positions: async () => [], orders: async () => [] },
    withAccountSession: () => Promise.reject(new Error('not in this test')),
    recordEvent: () => undefined,
    homeCurrency: 'USD',
    timeZone: 'America/New_York',
    notifiers: () => new Map(),
    logger: silentLogger,
  };
}

describe('schedule control', () => {
  it('shows a connection followed before the hub started in its current state, and its changes after', async () => {
    control = scheduleControl();
    const quote = new BehaviorSubject<ConnectionState>({ status: 'online', reconnected: false });
    control.watchConnection('quote', quote);

    hub = new OpsHub({ control, clock: new VirtualClock(T0), logger: silentLogger, refreshEveryMs: 0 });
    hub.start();
    metrics = createMetrics(hub, control);

    expect(hub.state().connections).toMatchObject([{ name: 'quote', status: 'online' }]);
    expect((await metrics.render()).body).toContain('trader_connection_up{connection="quote"} 1');

    quote.next({ status: 'reconnecting', attempt: 1, reason: 'socket closed', retryInMs: 1000 });
    expect(hub.state().connections).toMatchObject([{ name: 'quote', status: 'reconnecting' }]);
    expect((await metrics.render()).body).toContain('trader_connection_up{connection="quote"} 0');
  });

  it("counts the day's PnL from the schedule's kept day start, not from the dashboard's first reading", async () => {
    // A restarted schedule: the day began at 1,000,000 (kept in account-day.json), net assets are 1,000,368.08 now.
    control = scheduleControl({ dayStart: Money.of('1000000', 'USD'), balances: [balance('USD', '1000368.08')] });
    hub = new OpsHub({ control, clock: new VirtualClock(T0), logger: silentLogger, refreshEveryMs: 0 });
    hub.start();
    metrics = createMetrics(hub, control);
    await hub.settled();

    expect(hub.state().account.dayPnl).toEqual({ currency: 'USD', change: '368.08' });
    expect((await metrics.render()).body).toContain('trader_day_pnl{currency="USD"} 368.08');
  });
});
