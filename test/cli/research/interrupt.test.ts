// Stopping a research run or a data fetch: Ctrl-C and SIGTERM alike stop it once, keeping what has finished.
import { describe, expect, it } from 'vitest';
import { listenForInterrupt } from '../../../src/cli/research/interrupt.js';

/** A stand-in for stderr that keeps what is written. */
function stream(): NodeJS.WriteStream & { readonly text: string[] } {
  const text: string[] = [];
  return { isTTY: false, text, write: (chunk: string) => text.push(chunk) > 0 } as unknown as NodeJS.WriteStream & { text: string[] };
}

describe('listening for an interrupt', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('stops on %s once, says so once, and stops listening when released', (signal) => {
    const stderr = stream();
    const listeners = process.listenerCount(signal);
    const interrupt = listenForInterrupt(stderr);

    process.emit(signal);
    process.emit(signal);
    interrupt.release();

    expect(interrupt.signal.aborted).toBe(true);
    expect(stderr.text).toEqual(['stopping: finishing the work in flight and keeping what has finished (Ctrl-C again is ignored)\n']);
    expect(process.listenerCount(signal)).toBe(listeners);
  });
});
