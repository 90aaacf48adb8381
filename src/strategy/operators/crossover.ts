// crossover(fast, slow): 'up' when the fast SMA of closes crosses above the slow one, 'down' when it crosses
// below. Emits only on a cross (never for the first stable bar, never twice in a row for the same side).
import { Observable, type OperatorFunction } from 'rxjs';
import { InvalidInputError } from '../../domain/index.js';
import { subscribeCloses, type Price } from './closes.js';
import { checkInterval } from './indicator.js';
import { RollingMean } from './rolling-mean.js';

export type Cross = 'up' | 'down';

export function crossover(fast: number, slow: number): OperatorFunction<Price, Cross> {
  checkInterval(fast, 'crossover fast');
  checkInterval(slow, 'crossover slow');
  if (fast >= slow) throw new InvalidInputError(`crossover: fast (${fast}) must be shorter than slow (${slow})`, 'fast');
  return (source) =>
    new Observable<Cross>((subscriber) => {
      // Exact means, compared exactly (see rolling-mean.ts): equal windows make no cross.
      const fastAverage = new RollingMean(fast);
      const slowAverage = new RollingMean(slow);
      // Side of the last bar where the averages differed: 1 fast above, -1 fast below, 0 not known yet.
      let side = 0;
      return subscribeCloses(source, subscriber, (closes, at) => {
        const fastReady = fastAverage.add(closes, at);
        if (!slowAverage.add(closes, at) || !fastReady) return;
        const now = fastAverage.compare(slowAverage);
        if (now === 0) return;
        const previous = side;
        side = now;
        if (previous !== 0 && previous !== now) subscriber.next(now === 1 ? 'up' : 'down');
      });
    });
}
