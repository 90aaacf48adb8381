// Waiting in tests for a real event from a stream (never for wall time): the first value that matches.
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
