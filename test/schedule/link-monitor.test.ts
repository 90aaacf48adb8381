import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import type { ConnectionState } from '../../src/openapi/socket/connection-state.js';
import { LinkMonitor } from '../../src/schedule/link-monitor.js';
import { OutageGuard, type LinkState } from '../../src/schedule/outage-guard.js';
import { waitUntil } from '../support/schedule/wait.js';

const ONLINE: ConnectionState = { status: 'online', reconnected: false };
const BACK: ConnectionState = { status: 'online', reconnected: true };
const LOST: ConnectionState = { status: 'reconnecting', attempt: 1, reason: 'socket closed', retryInMs: 2000 };

function setUp(reconcile: () => Promise<void>) {
  const clock = new VirtualClock(0);
  const guard = new OutageGuard({ clock, limitMs: 60_000 });
  const states: LinkState[] = [];
  guard.states.subscribe((state) => states.push(state));
  const monitor = new LinkMonitor({ guard, clock, reconcile, retryMs: 30_000 });
  return { clock, guard, states, monitor };
}

describe('LinkMonitor', () => {
  it('counts the link down while any watched connection is lost, and up only when all are back', async () => {
    const { clock, guard, states, monitor } = setUp(async () => undefined);
    const quote = new Subject<ConnectionState>();
    const trade = new Subject<ConnectionState>();
    monitor.watch('quote', quote);
    monitor.watch('trade', trade);
    quote.next(ONLINE);
    trade.next(ONLINE);

    quote.next(LOST);
    trade.next(LOST);
    quote.next(BACK);
    const oneStillDown = guard.state;
    trade.next(BACK);

    expect(oneStillDown).toBe('down');
    expect(guard.state).toBe('up');
    await clock.advanceByAsync(120_000);
    expect(states).toEqual(['up', 'down', 'up']);
  });

  it('stops counting a connection that closed (a session that ended)', () => {
    const { guard, monitor } = setUp(async () => undefined);
    const trade = new Subject<ConnectionState>();
    monitor.watch('trade', trade);

    trade.next(LOST);
    trade.next({ status: 'closed', reason: 'stopped' });

    expect(guard.state).toBe('up');
  });

  it('after a halt, lets orders through only once a reconciliation succeeded, trying again when it fails', async () => {
    let attempts = 0;
    const { clock, guard, monitor } = setUp(async () => {
      attempts++;
      if (attempts === 1) throw new Error('broker unreachable');
    });
    const quote = new Subject<ConnectionState>();
    monitor.watch('quote', quote);
    quote.next(LOST);
    await clock.advanceByAsync(61_000);
    const halted = guard.state;

    quote.next(BACK);
    await waitUntil(() => attempts === 1, 'the first reconciliation');
    const afterFailure = guard.state;
    await clock.advanceByAsync(30_000);
    await waitUntil(() => guard.state === 'up', 'the retry to succeed');

    expect([halted, afterFailure]).toEqual(['halted', 'reconciling']);
    expect(attempts).toBe(2);
  });
});
