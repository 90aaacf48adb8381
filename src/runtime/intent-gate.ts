// Holds back a strategy's new orders while something outside the runtime says no (the scheduler's outage
// guard): order, close and target intents are dropped and reported, cancels always pass (they only reduce
// risk). The strategy itself is untouched; its stream of intents is filtered on the way to the executor.
import { filter, isObservable } from 'rxjs';
import type { OrderIntent } from '../domain/intent.js';
import type { PreparedStrategy } from '../strategy/prepare.js';

export interface IntentGate {
  /** Undefined while new orders may go out, else why not (one line). */
  blocked(): string | undefined;
}

export function gateStrategy(
  strategy: PreparedStrategy,
  gate: IntentGate,
  onBlocked: (intent: OrderIntent, reason: string) => void,
): PreparedStrategy {
  const { definition } = strategy;
  return {
    ...strategy,
    definition: {
      ...definition,
      run: (ctx) => {
        const intents = definition.run(ctx);
        // Anything else is left for the strategy host to refuse with its own message.
        if (!isObservable(intents)) return intents;
        return intents.pipe(
          filter((intent) => {
            if ((intent as Partial<OrderIntent> | null)?.kind === 'cancel') return true;
            const reason = gate.blocked();
            if (reason === undefined) return true;
            onBlocked(intent, reason);
            return false;
          }),
        );
      },
    },
  };
}
