// Wall-clock time for live and paper runs: the only place that reads Date.now() or arms real timers.
import type { Clock, TimerHandle } from '../domain/clock.js';

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(callback, delayMs): TimerHandle {
    const timer = setTimeout(callback, Math.max(0, delayMs));
    return { cancel: () => clearTimeout(timer) };
  },
  setInterval(callback, intervalMs): TimerHandle {
    const timer = setInterval(callback, Math.max(1, intervalMs));
    return { cancel: () => clearInterval(timer) };
  },
};
