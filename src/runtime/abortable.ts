// A start-up step an abort cuts short: the caller goes on at once (rejected with the abort's reason) instead of
// waiting for a step held up by the account's pacing or a slow venue, and what the step still brings afterwards
// is disposed of, so an abandoned start leaves nothing open.

/** `work`, or the abort's reason as soon as `signal` aborts; a value that comes after that goes to `dispose`. */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined, dispose?: (late: T) => unknown): Promise<T> {
  if (signal === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    let abandoned = false;
    const onAbort = (): void => {
      abandoned = true;
      reject(signal.reason);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (!abandoned) resolve(value);
        else if (dispose !== undefined) void Promise.resolve(dispose(value)).catch(() => undefined);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (!abandoned) reject(error);
      },
    );
  });
}
