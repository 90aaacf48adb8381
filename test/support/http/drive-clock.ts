// Runs a promise that mixes real socket I/O with timers on a VirtualClock: lets I/O happen, and jumps virtual
// time to the next timer only when that timer is a short wait (back-off, pacing) rather than a request timeout.
import type { VirtualClock } from '../../../src/clock/virtual-clock.js';

export async function driveClock<T>(clock: VirtualClock, work: Promise<T>, maxStepMs = 60_000): Promise<T> {
  let settled = false;
  const done = work.finally(() => {
    settled = true;
  });
  done.catch(() => undefined);
  while (!settled) {
    await new Promise((resolve) => setImmediate(resolve));
    const next = clock.nextTimerAt();
    if (next !== undefined && next - clock.now() <= maxStepMs) clock.advanceTo(next);
  }
  return done;
}
