// Waits (on real I/O, not on time) until a condition holds: lets socket callbacks and promise chains run.
// waitUntil fails after a bounded number of event-loop turns (for in-memory work); waitFor keeps turning
// until a real-time guard (for sockets, child processes and module loading), which only fails a broken test.
export async function waitUntil(condition: () => boolean, what: string, turns = 5000): Promise<void> {
  for (let turn = 0; turn < turns; turn++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`gave up waiting until ${what}`);
}

export async function waitFor(condition: () => boolean, what: string, guardMs = 15_000): Promise<void> {
  const deadline = performance.now() + guardMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`gave up waiting until ${what} (after ${guardMs} ms)`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
