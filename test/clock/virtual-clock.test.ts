import { interval, take, toArray, firstValueFrom, timeout } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { clockScheduler } from '../../src/clock/scheduler.js';
import { sleep } from '../../src/clock/sleep.js';
import { VirtualClock } from '../../src/clock/virtual-clock.js';

describe('VirtualClock', () => {
  it('fires timers in due order and only when time reaches them', () => {
    const clock = new VirtualClock(1000);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 200);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 100);
    clock.advanceBy(150);
    expect(fired).toEqual(['a@1100']);
    clock.advanceBy(100);
    expect(fired).toEqual(['a@1100', 'b@1200']);
    expect(clock.now()).toBe(1250);
  });

  it('moves to a time read from a slot as to the time itself: timers fire on the way, never back', () => {
    const clock = new VirtualClock(1000);
    const times = new Float64Array([900, 1500.5, 2600]);
    clock.advanceToAt(times, 0);
    expect(clock.now()).toBe(1000);
    clock.advanceToAt(times, 1);
    expect(clock.now()).toBe(1500.5);
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(clock.now()), 500);
    clock.setTimeout(() => fired.push(clock.now()), 2000);
    clock.advanceToAt(times, 2);
    expect(fired).toEqual([2000.5]);
    expect(clock.now()).toBe(2600);
    expect(clock.pendingTimers).toBe(1);
  });

  it('never moves back, with timers armed, cancelled or none', () => {
    const clock = new VirtualClock(1000);
    clock.advanceTo(900);
    expect(clock.now()).toBe(1000);
    clock.advanceTo(1500);
    expect(clock.now()).toBe(1500);

    const fired: number[] = [];
    const cancelled = clock.setTimeout(() => fired.push(-1), 100);
    clock.setTimeout(() => fired.push(clock.now()), 300);
    cancelled.cancel();
    clock.advanceTo(1400);
    expect(clock.now()).toBe(1500);
    clock.advanceTo(2000);
    expect(fired).toEqual([1800]);
    expect(clock.now()).toBe(2000);
    expect(clock.pendingTimers).toBe(0);
    clock.advanceTo(1999);
    expect(clock.now()).toBe(2000);
  });

  it('repeats intervals until cancelled', () => {
    const clock = new VirtualClock();
    let ticks = 0;
    const handle = clock.setInterval(() => ticks++, 10);
    clock.advanceBy(35);
    expect(ticks).toBe(3);
    handle.cancel();
    clock.advanceBy(100);
    expect(ticks).toBe(3);
    expect(clock.pendingTimers).toBe(0);
  });

  it('resolves sleeps at the virtual time they are due', async () => {
    const clock = new VirtualClock();
    const woke: number[] = [];
    void sleep(clock, 500).then(() => woke.push(clock.now()));
    await clock.advanceByAsync(499);
    expect(woke).toEqual([]);
    await clock.advanceByAsync(1);
    expect(woke).toEqual([500]);
  });

  it('rejects a sleep when its signal aborts', async () => {
    const clock = new VirtualClock();
    const controller = new AbortController();
    const slept = sleep(clock, 1000, controller.signal);
    controller.abort(new Error('stopped'));
    await expect(slept).rejects.toThrow('stopped');
  });

  it('drives RxJS time operators through the scheduler adapter', async () => {
    const clock = new VirtualClock();
    const scheduler = clockScheduler(clock);
    const values = firstValueFrom(interval(1000, scheduler).pipe(take(3), toArray()));
    await clock.advanceByAsync(3000);
    expect(await values).toEqual([0, 1, 2]);
    expect(clock.now()).toBe(3000);
  });

  it('times out an RxJS stream on virtual time', async () => {
    const clock = new VirtualClock();
    const scheduler = clockScheduler(clock);
    const never = firstValueFrom(interval(10_000, scheduler).pipe(timeout({ first: 5000, scheduler })));
    const outcome = never.catch((error: Error) => error.name);
    await clock.advanceByAsync(5000);
    expect(await outcome).toBe('TimeoutError');
  });
});
