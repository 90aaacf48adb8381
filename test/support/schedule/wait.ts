// Waits (on real I/O, not on time) until a condition holds: lets socket callbacks and promise chains run,
// and fails after a bounded number of turns instead of hanging.
export async function waitUntil(condition: () => boolean, what: string, turns = 5000): Promise<void> {
  for (let turn = 0; turn < turns; turn++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`gave up waiting until ${what}`);
}
