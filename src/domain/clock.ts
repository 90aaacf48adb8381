// The one clock: everything that needs the time or a timer gets it from an injected Clock, so the same code
// runs on wall time (live, paper) and on virtual time (backtests, tests).

export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  setInterval(callback: () => void, intervalMs: number): TimerHandle;
}
