// A strategy whose intents the test emits by hand, with access to the context it was given.
import { Subject } from 'rxjs';
import type { OrderIntent } from '../../../src/domain/index.js';
import { defineStrategy, prepareStrategy, type PreparedStrategy, type StrategyContext } from '../../../src/strategy/index.js';

export interface ManualStrategy {
  readonly strategy: PreparedStrategy;
  /** Emits an intent built from the strategy's context (available once the runtime started). */
  emit(build: (ctx: StrategyContext<Record<string, never>>) => OrderIntent): void;
  readonly context: () => StrategyContext<Record<string, never>>;
}

export function manualStrategy(name = 'manual', symbols: readonly string[] = ['AAPL.US']): ManualStrategy {
  const intents = new Subject<OrderIntent>();
  let context: StrategyContext<Record<string, never>> | undefined;
  const definition = defineStrategy({
    name,
    symbols,
    run: (ctx) => {
      context = ctx;
      return intents.asObservable();
    },
  });
  const current = (): StrategyContext<Record<string, never>> => {
    if (context === undefined) throw new Error(`strategy ${name} has not been started`);
    return context;
  };
  return { strategy: prepareStrategy(definition), emit: (build) => intents.next(build(current())), context: current };
}
