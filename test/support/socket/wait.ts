// Waiting in tests for a real event (never for wall time): the first value of a stream that matches, or a
// condition that holds once the I/O in flight has been handled.
import { filter, firstValueFrom, type Observable } from 'rxjs';
import type { ConnectionState } from '../../../src/openapi/socket/connection-state.js';

export function first<T>(source: Observable<T>, predicate: (value: T) => boolean = () => true, timeoutMs = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    // A real-time guard so a broken test fails instead of hanging; never part of the behaviour tested.
    const guard = setTimeout(() => reject(new Error(`no matching value within ${timeoutMs} ms`)), timeoutMs);
    firstValueFrom(source.pipe(filter(predicate))).then(
      (value) => (clearTimeout(guard), resolve(value)),
      (error: unknown) => (clearTimeout(guard), reject(error as Error)),
    );
  });
}

export function stateOf(states: Observable<ConnectionState>, status: ConnectionState['status']): Promise<ConnectionState> {
  return first(states, (state) => state.status === status);
}

/** Resolves once `condition` holds, checked between I/O events (a real-time guard keeps a broken test from hanging). */
export function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error('condition not met in time')), timeoutMs);
    const check = async (): Promise<void> => {
      if (await condition()) {
        clearTimeout(deadline);
        resolve();
      } else setImmediate(() => void check());
    };
    void check();
  });
}
