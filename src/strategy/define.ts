// defineStrategy: the one way to write a strategy, either as an RxJS pipeline (`run`) or as a per-candle
// callback (`onCandle`); both become the same definition the loader and the runtime run.
import { Observable, merge } from 'rxjs';
import type { Candle, OrderIntent, Period } from '../domain/index.js';
import type { z } from 'zod';
import type { StrategyContext } from './context.js';
import type { ParamDefaults, Params } from './params.js';

/** Marks a strategy definition, so the loader can tell one from any other default export. */
export const STRATEGY_TAG = 'longport-trader/strategy@1';

interface StrategySpecBase<D extends ParamDefaults> {
  readonly name: string;
  readonly description?: string;
  /** Parameter defaults; their types are the params' types (override with `--param key=value`). */
  readonly params?: D;
  /** Stricter validation than the defaults' types (ranges, relations between params). */
  readonly paramsSchema?: z.ZodType<Params<D>>;
  /** Default symbols (override with `--symbols`). */
  readonly symbols?: readonly string[];
  /** Default candle period (override with `--period`); 'day' when omitted. */
  readonly period?: Period;
  /**
   * Closed bars of history each candle stream should see before live data in live and paper runs (indicators
   * start warm), as a number or from the params; 0 when omitted. Backtests start at their data's first bar.
   */
  readonly warmup?: Warmup<D>;
}

/** A fixed number of bars, or one computed from the run's params (after `--param` overrides). */
export type Warmup<D extends ParamDefaults> = number | ((params: Params<D>) => number);

export interface RxStrategySpec<D extends ParamDefaults> extends StrategySpecBase<D> {
  /** Called once per run; returns the stream of this strategy's intents. */
  run(ctx: StrategyContext<Params<D>>): Observable<OrderIntent>;
}

/** What a callback returns: nothing, one intent, or several. */
// biome-ignore lint/suspicious/noConfusingVoidType: a callback may simply not return
export type CallbackResult = OrderIntent | readonly OrderIntent[] | undefined | void;

export interface CallbackStrategySpec<D extends ParamDefaults, S> extends StrategySpecBase<D> {
  /** Called once per run, before the first candle: returns this run's state (indicators, counters…). */
  init?(ctx: StrategyContext<Params<D>>): S;
  /** Called once per closed candle of every symbol of the strategy, in time order. */
  onCandle(candle: Candle, ctx: StrategyContext<Params<D>>, state: S): CallbackResult;
}

export interface StrategyDefinition<D extends ParamDefaults = ParamDefaults> {
  readonly tag: typeof STRATEGY_TAG;
  readonly name: string;
  readonly description: string | undefined;
  readonly defaults: D;
  readonly paramsSchema: z.ZodType<Params<D>> | undefined;
  readonly symbols: readonly string[] | undefined;
  readonly period: Period | undefined;
  readonly warmup: Warmup<D> | undefined;
  run(ctx: StrategyContext<Params<D>>): Observable<OrderIntent>;
}

export function defineStrategy<D extends ParamDefaults = Record<never, never>>(spec: RxStrategySpec<D>): StrategyDefinition<D>;
export function defineStrategy<D extends ParamDefaults = Record<never, never>, S = undefined>(
  spec: CallbackStrategySpec<D, S>,
): StrategyDefinition<D>;
export function defineStrategy<D extends ParamDefaults, S>(spec: RxStrategySpec<D> | CallbackStrategySpec<D, S>): StrategyDefinition<D> {
  return {
    tag: STRATEGY_TAG,
    name: spec.name,
    description: spec.description,
    defaults: spec.params ?? ({} as D),
    paramsSchema: spec.paramsSchema,
    symbols: spec.symbols,
    period: spec.period,
    warmup: spec.warmup,
    run: 'run' in spec ? spec.run : (ctx) => fromCallback(spec, ctx),
  };
}

// Feeds every candle of every symbol to onCandle and forwards what it returns. Allocation-free per candle
// when the callback returns nothing; a throw fails the stream, which isolates the strategy.
function fromCallback<D extends ParamDefaults, S>(
  spec: CallbackStrategySpec<D, S>,
  ctx: StrategyContext<Params<D>>,
): Observable<OrderIntent> {
  return new Observable<OrderIntent>((subscriber) => {
    const state = spec.init === undefined ? (undefined as S) : spec.init(ctx);
    const candles = ctx.symbols.length === 1 ? ctx.candles(ctx.symbol) : merge(...ctx.symbols.map((symbol) => ctx.candles(symbol)));
    return candles.subscribe({
      next(candle) {
        let result: CallbackResult;
        try {
          result = spec.onCandle(candle, ctx, state);
        } catch (error) {
          subscriber.error(error);
          return;
        }
        if (result === undefined) return;
        if (isIntentList(result)) for (const intent of result) subscriber.next(intent);
        else subscriber.next(result);
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
  });
}

function isIntentList(result: OrderIntent | readonly OrderIntent[]): result is readonly OrderIntent[] {
  return Array.isArray(result);
}
