// Declarative exits (a bracket) attached to an entry: stop-loss, take-profit and trailing stop, as a fraction
// of the average cost or an amount. The runtime holds them while the position is open and checks each
// closed bar: the first level the bar reached sends a close tagged with the exit's name, and keeps sending
// it on later bars while the position stays open (a triggered stop stays triggered); the position closing
// or reversing any other way drops them. Same code in backtest, paper and live (it only emits intents); a
// keeper, when given, is told of every change so that a restart can re-arm them.
import { Observable, type Subscription } from 'rxjs';
import type { Candle, ExitSpec, OrderIntent, SecuritySymbol } from '../domain/index.js';
import type { PositionsView, StrategyContext } from './context.js';
import { exitReached, type ExitTag } from './exit-levels.js';

/** The exits held for one symbol: all a restart needs to re-arm them. */
export interface HeldExits {
  readonly exits: ExitSpec;
  /**
   * The side of the position they protect (1 long, −1 short), set when it is first seen open: flat after
   * that means it was closed, the other side that it was reversed, and either way the exits go.
   */
  readonly direction: 1 | -1 | undefined;
  /** Best price since the position opened (highest high of a long, lowest low of a short); NaN until then. */
  readonly best: number;
  /** The exit whose level was reached, while its close has not yet made the position flat. */
  readonly fired: ExitTag | undefined;
}

/**
 * Told of each change of the held exits, as it happens, so they outlive the process (the runtime's journal):
 * armed, the position seen open, a new best price under a trailing stop, an exit fired, dropped. Never
 * called on a bar that changes none of these, and absent in backtests.
 */
export interface ExitKeeper {
  kept(symbol: SecuritySymbol, held: HeldExits): void;
  dropped(symbol: SecuritySymbol, why: string): void;
}

export interface ExitOptions {
  /** Exits held when the process last stopped, armed again before the first bar. */
  readonly restored?: ReadonlyMap<SecuritySymbol, HeldExits>;
  readonly keeper?: ExitKeeper;
}

/** What the exits read and send through: the strategy's context, and its working orders. */
export interface ExitContext extends Pick<StrategyContext<unknown>, 'close' | 'cancel' | 'denials' | 'clock'> {
  readonly positions: Pick<PositionsView, 'get'>;
  /** Whether the strategy has a working order in `symbol` that adds to a position of sign `direction`. */
  addingOrderWorks(symbol: SecuritySymbol, direction: 1 | -1): boolean;
}

interface Armed {
  readonly exits: ExitSpec;
  direction: 1 | -1 | undefined;
  best: number;
  fired: ExitTag | undefined;
  /**
   * When they were armed while the symbol's bars were already watched (else NaN): the close of the bar the
   * entry was decided on, which then reaches the exits too. Its range came before the entry filled, even
   * when that is at its close (--fill close), so it is not checked.
   */
  readonly armedAt: number;
  /** The entry that armed them (none when restored) and the exits it replaced: a denied entry changes nothing. */
  readonly entry: OrderIntent | undefined;
  readonly replaced: Armed | undefined;
}

/**
 * The strategy's intents, plus the closes its entries' exits call for. `bars` gives a symbol's closed bars
 * (the strategy's period) as they come, without history; positions are read when each bar closes. An entry
 * with exits replaces the symbol's earlier ones (and starts the trailing stop afresh); an entry without
 * exits leaves them in place, over the whole position at its new average cost.
 */
export function withExits(
  intents: Observable<OrderIntent>,
  ctx: ExitContext,
  bars: (symbol: SecuritySymbol) => Observable<Candle>,
  options: ExitOptions = {},
): Observable<OrderIntent> {
  const { keeper } = options;
  return new Observable<OrderIntent>((subscriber) => {
    const armed = new Map<SecuritySymbol, Armed>();
    const watching = new Map<SecuritySymbol, Subscription>();
    // Listened to from the first entry with exits on: strategies without exits pay nothing.
    let denials: Subscription | undefined;
    let sourceDone = false;
    const finishIfIdle = (): void => {
      if (sourceDone && armed.size === 0) subscriber.complete();
    };
    const drop = (symbol: SecuritySymbol, why: string): void => {
      armed.delete(symbol);
      keeper?.dropped(symbol, why);
      finishIfIdle();
    };
    const onDenied = (intent: OrderIntent): void => {
      if (intent.kind !== 'order' && intent.kind !== 'target') return;
      const arm = armed.get(intent.symbol);
      if (arm === undefined || arm.entry !== intent) return;
      if (arm.replaced === undefined) {
        drop(intent.symbol, 'its entry was denied');
        return;
      }
      armed.set(intent.symbol, arm.replaced);
      keeper?.kept(intent.symbol, arm.replaced);
    };
    const exit = (symbol: SecuritySymbol, direction: 1 | -1, tag: ExitTag, reason: string): void => {
      // The unfilled rest of a partly filled entry would add to the position after the close, and counts in
      // what the close must sell: the strategy's working orders in the symbol are cancelled first.
      if (ctx.addingOrderWorks(symbol, direction)) subscriber.next(ctx.cancel(symbol, `${tag}: the rest of the entry`));
      subscriber.next(ctx.close({ symbol, tag, reason }));
    };
    const onBar = (symbol: SecuritySymbol, bar: Candle): void => {
      const arm = armed.get(symbol);
      if (arm === undefined) return;
      const armedOnThisBar = ctx.clock.now() <= arm.armedAt;
      const position = ctx.positions.get(symbol);
      if (position === undefined || position.quantity.isZero()) {
        // Not yet open: the entry has not filled; once open, flat means closed.
        if (arm.direction !== undefined) drop(symbol, 'the position closed');
        return;
      }
      const direction = position.quantity.isNegative() ? -1 : 1;
      const averageCost = Number(position.averageCost.toString());
      if (arm.direction === undefined) {
        arm.direction = direction;
        arm.best = averageCost;
        keeper?.kept(symbol, arm);
        if (armedOnThisBar) return;
      } else if (arm.direction !== direction) {
        // Long to short (or back) in one order: the protected position is gone; the new one has no exits.
        drop(symbol, 'the position reversed');
        return;
      }
      if (arm.fired !== undefined) {
        // Its close was denied or has not filled yet (a repeat sends nothing while it works).
        exit(symbol, direction, arm.fired, `${arm.fired} reached earlier; the position is still open`);
        return;
      }
      const hit = exitReached(arm.exits, direction, averageCost, arm.best, bar);
      const best = direction === 1 ? Math.max(arm.best, bar.high) : Math.min(arm.best, bar.low);
      if (best !== arm.best) {
        arm.best = best;
        if (keeper !== undefined && arm.exits.trailingStop !== undefined && hit === undefined) keeper.kept(symbol, arm);
      }
      if (hit === undefined) return;
      arm.fired = hit.tag;
      keeper?.kept(symbol, arm);
      exit(symbol, direction, hit.tag, `${hit.tag} at ${hit.level} (average cost ${averageCost})`);
    };
    const watch = (symbol: SecuritySymbol): void => {
      if (watching.has(symbol)) return;
      watching.set(
        symbol,
        bars(symbol).subscribe({
          next: (bar) => onBar(symbol, bar),
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            // No more bars (the data ended), not a closed position: a keeper keeps them for the next run.
            armed.delete(symbol);
            finishIfIdle();
          },
        }),
      );
    };
    // Armed before the strategy is subscribed (it may complete at once, or re-arm a symbol), watched after.
    for (const [symbol, held] of options.restored ?? [])
      armed.set(symbol, { ...held, armedAt: Number.NaN, entry: undefined, replaced: undefined });
    const source = intents.subscribe({
      next(intent) {
        if ((intent.kind === 'order' || intent.kind === 'target') && intent.exits !== undefined) {
          const current = armed.get(intent.symbol);
          // One level back: a chain would keep every earlier entry's exits alive for the rest of the run.
          const replaced = current === undefined ? undefined : { ...current, entry: undefined, replaced: undefined };
          const arm: Armed = {
            exits: intent.exits,
            direction: undefined,
            best: Number.NaN,
            fired: undefined,
            armedAt: watching.has(intent.symbol) ? ctx.clock.now() : Number.NaN,
            entry: intent,
            replaced,
          };
          denials ??= ctx.denials.subscribe((denial) => onDenied(denial.intent));
          armed.set(intent.symbol, arm);
          // Kept before the entry goes out: a crash in between leaves exits that a restart drops, never an
          // entry without its exits.
          keeper?.kept(intent.symbol, arm);
          watch(intent.symbol);
        }
        subscriber.next(intent);
      },
      error: (error: unknown) => subscriber.error(error),
      complete() {
        sourceDone = true;
        finishIfIdle();
      },
    });
    // After the strategy's own streams, as for exits armed later: on a shared bar the strategy acts first.
    for (const symbol of options.restored?.keys() ?? []) if (armed.has(symbol)) watch(symbol);
    return () => {
      source.unsubscribe();
      denials?.unsubscribe();
      for (const subscription of watching.values()) subscription.unsubscribe();
    };
  });
}
