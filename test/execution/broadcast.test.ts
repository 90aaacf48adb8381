import fc from 'fast-check';
import { Subject, map, type Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Broadcast } from '../../src/execution/broadcast.js';

type Step =
  | { readonly kind: 'subscribe' }
  | { readonly kind: 'unsubscribe'; readonly which: number }
  | { readonly kind: 'next'; readonly value: number }
  | { readonly kind: 'complete' }
  | { readonly kind: 'error' }
  /** A subscriber that, on its first value, subscribes another one and unsubscribes the oldest. */
  | { readonly kind: 'meddler' };

const steps = fc.array(
  fc.oneof(
    fc.constant<Step>({ kind: 'subscribe' }),
    fc.nat(5).map((which): Step => ({ kind: 'unsubscribe', which })),
    fc.integer().map((value): Step => ({ kind: 'next', value })),
    fc.constant<Step>({ kind: 'complete' }),
    fc.constant<Step>({ kind: 'error' }),
    fc.constant<Step>({ kind: 'meddler' }),
  ),
  { maxLength: 30 },
);

// Runs the steps against a Subject-like stream and returns what every subscriber saw, in order.
function play(stream: Subject<number> | Broadcast<number>, script: readonly Step[]): string[] {
  const log: string[] = [];
  const subscriptions: Subscription[] = [];
  let count = 0;
  const subscribe = (): void => {
    const id = count++;
    subscriptions.push(
      stream.pipe(map((value) => value * 2)).subscribe({
        next: (value) => log.push(`${id}:${value}`),
        error: () => log.push(`${id}:error`),
        complete: () => log.push(`${id}:complete`),
      }),
    );
  };
  for (const step of script) {
    if (step.kind === 'subscribe') subscribe();
    else if (step.kind === 'unsubscribe') subscriptions[step.which]?.unsubscribe();
    else if (step.kind === 'next') stream.next(step.value);
    else if (step.kind === 'complete') stream.complete();
    else if (step.kind === 'error') stream.error(new Error('boom'));
    else {
      const id = count++;
      let first = true;
      subscriptions.push(
        stream.subscribe({
          next: (value) => {
            log.push(`${id}:${value}`);
            if (!first) return;
            first = false;
            subscribe();
            subscriptions[0]?.unsubscribe();
          },
          error: () => log.push(`${id}:error`),
        }),
      );
    }
  }
  return log;
}

describe('broadcast', () => {
  it('delivers, ends and late-subscribes exactly as an RxJS Subject does', () => {
    fc.assert(
      fc.property(steps, (script) => {
        expect(play(new Broadcast<number>(), script)).toEqual(play(new Subject<number>(), script));
      }),
      { numRuns: 1000 },
    );
  });

  it('hands out a read-only view that still sees every value', () => {
    const stream = new Broadcast<string>();
    const view = stream.asObservable();
    const seen: string[] = [];
    view.subscribe((value) => seen.push(value));
    stream.next('a');

    expect(seen).toEqual(['a']);
    expect('next' in view).toBe(false);
  });
});
