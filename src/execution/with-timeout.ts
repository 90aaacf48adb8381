// A broker call that gives up after a while on the injected clock (a hung request is a lost response).
import { TraderError, type Clock } from '../domain/index.js';

export class RequestTimeoutError extends TraderError {
  constructor(what: string, timeoutMs: number) {
    super('REQUEST_TIMEOUT', `${what}: no response after ${timeoutMs} ms`);
  }
}

export function withTimeout<T>(promise: Promise<T>, clock: Clock, timeoutMs: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = clock.setTimeout(() => reject(new RequestTimeoutError(what, timeoutMs)), timeoutMs);
    promise.then(
      (value) => {
        timer.cancel();
        resolve(value);
      },
      (error: unknown) => {
        timer.cancel();
        reject(error);
      },
    );
  });
}
