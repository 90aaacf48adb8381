import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.js';
import { OutageGuard, type LinkState } from '../../src/schedule/outage-guard.js';
import { RecordingNotifier } from '../support/schedule/recording-notifier.js';

function setUp() {
  const clock = new VirtualClock(0);
  const notifier = new RecordingNotifier();
  const guard = new OutageGuard({ clock, limitMs: 60_000, notifier });
  const states: LinkState[] = [];
  guard.states.subscribe((state) => states.push(state));
  return { clock, notifier, guard, states };
}

describe('OutageGuard', () => {
  it('keeps orders allowed through an outage shorter than the limit', () => {
    const { clock, guard, states, notifier } = setUp();
    guard.linkDown();
    clock.advanceBy(59_999);
    expect(guard.ordersAllowed).toBe(true);
    guard.linkUp();
    clock.advanceBy(120_000);
    expect(states).toEqual(['up', 'down', 'up']);
    expect(notifier.sent).toEqual([]);
  });

  it('halts new orders once the link has been down longer than the limit, and notifies', () => {
    const { clock, guard, notifier } = setUp();
    guard.linkDown();
    clock.advanceBy(60_000);
    expect(guard.state).toBe('halted');
    expect(guard.ordersAllowed).toBe(false);
    expect(guard.downSince).toBe(0);
    expect(notifier.sent).toEqual([
      {
        kind: 'outage',
        message: 'socket link down for more than 1m: new orders halted until the link and a reconciliation are back',
        details: { downSince: 0 },
      },
    ]);
  });

  it('allows orders again only after the link is back AND a reconciliation completed', () => {
    const { clock, guard, states, notifier } = setUp();
    guard.linkDown();
    clock.advanceBy(90_000);
    guard.reconciled(); // a reconciliation while still down does not count
    expect(guard.state).toBe('halted');
    guard.linkUp();
    expect(guard.ordersAllowed).toBe(false);
    clock.advanceBy(5_000);
    guard.reconciled();
    expect(guard.ordersAllowed).toBe(true);
    expect(states).toEqual(['up', 'down', 'halted', 'reconciling', 'up']);
    expect(notifier.sent[1]).toEqual({ kind: 'recovered', message: 'link and reconciliation back after 1m 35s; new orders allowed again' });
  });

  it('goes straight back to halted when the link drops again during reconciliation', () => {
    const { clock, guard } = setUp();
    guard.linkDown();
    clock.advanceBy(60_000);
    guard.linkUp();
    guard.linkDown();
    expect(guard.state).toBe('halted');
  });
});
