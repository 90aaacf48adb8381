// A timer for an absolute instant on the Clock, safe for far-off instants: wall-clock timers overflow past
// ~24.8 days, so long waits are re-armed in steps and the callback runs at (or just after) `atMs`.
import type { Clock, TimerHandle } from '../domain/clock.js';

const STEP_MS = 6 * 3_600_000;

export function timerAt(clock: Clock, atMs: number, callback: () => void): TimerHandle {
  let current: TimerHandle;
  const arm = (): void => {
    const delay = atMs - clock.now();
    current = delay > STEP_MS ? clock.setTimeout(arm, STEP_MS) : clock.setTimeout(callback, Math.max(0, delay));
  };
  arm();
  return { cancel: () => current.cancel() };
}
