// Declarative exits (a bracket) attached to an entry: stop-loss, take-profit and trailing stop, as a fraction
// of the average cost or an amount. The runtime holds them while the position is open and checks each
// closed bar: the first level the bar reached sends a close tagged with the exit's name; the position
// closing any other way drops them. Same code in backtest, paper and live (it only emits intents).
import { Observable, type Subscription } from 'rxjs';
import type { Candle, ExitDistance, ExitSpec, OrderIntent, SecuritySymbol } from '../domain/index.js';
import type { PositionsView, StrategyContext } from './context.js';

export const EXIT_TAGS = { stopLoss: 'stop-loss', takeProfit: 'take-profit', trailingStop: 'trailing-stop' } as const;

interface Armed {
  readonly exits: ExitSpec;
  /** True once the position was seen open: flat after that means it was closed, and the exits go. */
  opened: boolean;
  /** Best price since the entry (highest high of a long, lowest low of a short), for the trailing stop. */
  best: number;
}

/** What a bar reached, if anything: the exit's tag and the level, by priority stop-loss, trailing, take-profit. */
export interface ExitHit {
  readonly tag: (typeof EXIT_TAGS)[keyof typeof EXIT_TAGS];
  readonly level: number;
}

/**
 * The exit a bar reaches for a position of sign `direction` (1 long, −1 short) at `averageCost`, with `best`
 * the best price before this bar. When several are reached in one bar the worst case is assumed (the stop).
 */
export function exitReached(exits: ExitSpec, direction: 1 | -1, averageCost: number, best: number, bar: Candle): ExitHit | undefined {
  const away = (from: number, distance: ExitDistance, sign: 1 | -1): number =>
    'percent' in distance ? from * (1 + sign * distance.percent) : from + sign * distance.amount;
  // Adverse: below for a long (the low reaches it), above for a short (the high does).
  const adverseHit = (level: number): boolean => (direction === 1 ? bar.low <= level : bar.high >= level);
  if (exits.stopLoss !== undefined) {
    const level = away(averageCost, exits.stopLoss, direction === 1 ? -1 : 1);
    if (adverseHit(level)) return { tag: EXIT_TAGS.stopLoss, level };
  }
  if (exits.trailingStop !== undefined) {
    const level = away(best, exits.trailingStop, direction === 1 ? -1 : 1);
    if (adverseHit(level)) return { tag: EXIT_TAGS.trailingStop, level };
  }
  if (exits.takeProfit !== undefined) {
    const level = away(averageCost, exits.takeProfit, direction);
    if (direction === 1 ? bar.high >= level : bar.low <= level) return { tag: EXIT_TAGS.takeProfit, level };
  }
  return undefined;
}

/**
 * The strategy's intents, plus the closes its entries' exits call for. `bars` gives a symbol's closed bars
 * (the strategy's period) as they come, without history; positions are read when each bar closes.
 */
export function withExits(
  intents: Observable<OrderIntent>,
  ctx: Pick<StrategyContext<unknown>, 'close'> & { readonly positions: Pick<PositionsView, 'get'> },
  bars: (symbol: SecuritySymbol) => Observable<Candle>,
): Observable<OrderIntent> {
  return new Observable<OrderIntent>((subscriber) => {
    const armed = new Map<SecuritySymbol, Armed>();
    const watching = new Map<SecuritySymbol, Subscription>();
    let sourceDone = false;
    const finishIfIdle = (): void => {
      if (sourceDone && armed.size === 0) subscriber.complete();
    };
    const onBar = (symbol: SecuritySymbol, bar: Candle): void => {
      const arm = armed.get(symbol);
      if (arm === undefined) return;
      const position = ctx.positions.get(symbol);
      if (position === undefined || position.quantity.isZero()) {
        if (!arm.opened) return;
        armed.delete(symbol);
        finishIfIdle();
        return;
      }
      const direction = position.quantity.isNegative() ? -1 : 1;
      const averageCost = Number(position.averageCost.toString());
      if (!arm.opened) {
        arm.opened = true;
        arm.best = averageCost;
      }
      const hit = exitReached(arm.exits, direction, averageCost, arm.best, bar);
      arm.best = direction === 1 ? Math.max(arm.best, bar.high) : Math.min(arm.best, bar.low);
      if (hit !== undefined)
        subscriber.next(ctx.close({ symbol, tag: hit.tag, reason: `${hit.tag} at ${hit.level} (average cost ${averageCost})` }));
    };
    const watch = (symbol: SecuritySymbol): void => {
      if (watching.has(symbol)) return;
      watching.set(
        symbol,
        bars(symbol).subscribe({
          next: (bar) => onBar(symbol, bar),
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            armed.delete(symbol);
            finishIfIdle();
          },
        }),
      );
    };
    const source = intents.subscribe({
      next(intent) {
        subscriber.next(intent);
        if ((intent.kind === 'order' || intent.kind === 'target') && intent.exits !== undefined) {
          armed.set(intent.symbol, { exits: intent.exits, opened: false, best: Number.NaN });
          watch(intent.symbol);
        }
      },
      error: (error: unknown) => subscriber.error(error),
      complete() {
        sourceDone = true;
        finishIfIdle();
      },
    });
    return () => {
      source.unsubscribe();
      for (const subscription of watching.values()) subscription.unsubscribe();
    };
  });
}
