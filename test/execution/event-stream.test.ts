import { describe, expect, it } from 'vitest';
import { EventStream } from '../../src/execution/event-stream.js';
import type { RuntimeEvent } from '../../src/execution/events.js';

const skipped = (time: number): RuntimeEvent => ({ type: 'order-unconfirmed', time, strategy: 's', clientOrderId: 'c', reason: 'r' });
const reconciled = (time: number): RuntimeEvent => ({ type: 'reconciled', time, openOrders: 0, positions: 0, stable: true });

describe('EventStream', () => {
  it('wants no event while no one listens', () => {
    const events = new EventStream();
    expect(events.wants('fill')).toBe(false);
    expect(events.wants('intent')).toBe(false);
  });

  it('wants every type while a subscriber takes the whole stream', () => {
    const events = new EventStream();
    const subscription = events.asObservable().subscribe(() => undefined);
    expect(events.wants('fill')).toBe(true);
    expect(events.wants('reconciled')).toBe(true);
    subscription.unsubscribe();
    expect(events.wants('fill')).toBe(false);
  });

  it('wants only the types a listener listens for, and gives it only those', () => {
    const events = new EventStream();
    const seen: RuntimeEvent[] = [];
    const subscription = events.listen(['reconciled'], (event) => seen.push(event));
    expect(events.wants('reconciled')).toBe(true);
    expect(events.wants('order-unconfirmed')).toBe(false);
    events.next(skipped(1));
    events.next(reconciled(2));
    expect(seen).toEqual([reconciled(2)]);
    subscription.unsubscribe();
    expect(events.wants('reconciled')).toBe(false);
  });

  it('counts listeners of one type apart, and a whole-stream subscriber beside them', () => {
    const events = new EventStream();
    const first = events.listen(['reconciled', 'fill'], () => undefined);
    const second = events.listen(['reconciled'], () => undefined);
    first.unsubscribe();
    expect(events.wants('reconciled')).toBe(true);
    expect(events.wants('fill')).toBe(false);
    const whole = events.subscribe(() => undefined);
    expect(events.wants('fill')).toBe(true);
    whole.unsubscribe();
    second.unsubscribe();
    expect(events.wants('reconciled')).toBe(false);
  });

  it('wants nothing once complete, and a listener added then is ended at once', () => {
    const events = new EventStream();
    events.listen(['fill'], () => undefined);
    events.complete();
    expect(events.wants('fill')).toBe(false);
    const late = events.listen(['fill'], () => undefined);
    expect(late.closed).toBe(true);
    expect(events.wants('fill')).toBe(false);
  });
});
