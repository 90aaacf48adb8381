// Restart delays: exponential from the initial delay, capped, optionally spread by jitter.
import type { BackoffSettings } from './job.js';

/** Delay before restart number `attempt` (1-based). `random` returns [0, 1) and is only used with jitter. */
export function backoffDelay(attempt: number, settings: BackoffSettings, random: () => number = Math.random): number {
  const exponential = Math.min(settings.maxMs, settings.initialMs * 2 ** Math.max(0, attempt - 1));
  return settings.jitter ? Math.round(exponential * (0.5 + random() * 0.5)) : exponential;
}
