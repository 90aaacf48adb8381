// A strategy the test drives: it watches its symbol's quotes (so the runtime knows prices and the simulator
// holds a subscription) and emits exactly the intents the test hands it.
import { ignoreElements, merge, Subject } from 'rxjs';
import type { OrderIntent } from '../../../src/domain/intent.js';
import type { SecuritySymbol } from '../../../src/domain/symbol.js';
import type { StrategyContext } from '../../../src/strategy/context.js';
import { defineStrategy } from '../../../src/strategy/define.js';
import { prepareStrategy, type PreparedStrategy } from '../../../src/strategy/prepare.js';

export interface ControlledStrategy {
  readonly strategy: PreparedStrategy;
  emit(build: (ctx: StrategyContext<Record<string, never>>) => OrderIntent): void;
  /** Ends the strategy's stream with this error, as a strategy that throws does. */
  fail(message: string): void;
}

export function controlledStrategy(symbol: SecuritySymbol, name = 'controlled'): ControlledStrategy {
  const intents = new Subject<OrderIntent>();
  let context: StrategyContext<Record<string, never>> | undefined;
  const definition = defineStrategy({
    name,
    symbols: [symbol],
    run: (ctx) => {
      context = ctx;
      return merge(ctx.quotes().pipe(ignoreElements()), intents);
    },
  });
  return {
    strategy: prepareStrategy(definition),
    emit(build) {
      if (context === undefined) throw new Error(`strategy ${name} has not started`);
      intents.next(build(context));
    },
    fail(message) {
      intents.error(new Error(message));
    },
  };
}
