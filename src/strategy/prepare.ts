// A strategy definition plus its run settings (symbols, period, params) after overrides and validation:
// what the runtime starts.
import { InvalidInputError, parsePeriod, parseSymbol, type Period, type SecuritySymbol } from '../domain/index.js';
import type { StrategyDefinition } from './define.js';
import { describeError } from './errors.js';
import { resolveParams, type ParamDefaults, type ParamOverrides, type ParamValue, type Params } from './params.js';

export interface StrategyOverrides {
  readonly symbols?: readonly string[];
  readonly period?: Period | string;
  readonly params?: ParamOverrides;
}

export interface PreparedStrategy {
  readonly definition: StrategyDefinition<ParamDefaults>;
  readonly name: string;
  /** The file it came from, or a label for strategies defined in code; used in every error message. */
  readonly source: string;
  readonly symbols: readonly SecuritySymbol[];
  readonly period: Period;
  readonly params: Readonly<Record<string, ParamValue>>;
  /** Closed bars of history per candle stream before live data (the definition's warmup for these params). */
  readonly warmup: number;
}

/** Applies overrides and validates; every problem is reported at once, naming `source`. */
export function prepareStrategy<D extends ParamDefaults>(
  definition: StrategyDefinition<D>,
  overrides: StrategyOverrides = {},
  source = `strategy ${definition.name}`,
): PreparedStrategy {
  const problems: string[] = [];
  const symbols: SecuritySymbol[] = [];
  for (const text of overrides.symbols ?? definition.symbols ?? []) {
    try {
      symbols.push(parseSymbol(text));
    } catch (error) {
      problems.push(describeError(error));
    }
  }
  if (symbols.length === 0 && problems.length === 0) problems.push('no symbols: set `symbols` in the strategy or pass --symbols');
  let period: Period = definition.period ?? 'day';
  if (overrides.period !== undefined) {
    try {
      period = parsePeriod(overrides.period);
    } catch (error) {
      problems.push(describeError(error));
    }
  }
  const resolved = resolveParams(definition.defaults, overrides.params ?? {}, definition.paramsSchema);
  // "param fast: …"; an unknown name already says "unknown param …".
  problems.push(...resolved.problems.map((problem) => (problem.startsWith('unknown param') ? problem : `param ${problem}`)));
  const warmup = resolved.problems.length === 0 ? resolveWarmup(definition, resolved.params as Params<D>, problems) : 0;
  // Bad settings are user input (exit status 2 on the CLI), unlike a file that cannot load.
  if (problems.length > 0) throw new InvalidInputError(`${source}: ${problems.join('; ')}`, 'params');
  return {
    definition: definition as unknown as StrategyDefinition<ParamDefaults>,
    name: definition.name,
    source,
    symbols: [...new Set(symbols)],
    period,
    params: resolved.params,
    warmup,
  };
}

// A warm-up that cannot be computed or is not a whole number ≥ 0 is reported like a bad setting.
function resolveWarmup<D extends ParamDefaults>(definition: StrategyDefinition<D>, params: Params<D>, problems: string[]): number {
  let warmup: unknown;
  try {
    warmup = typeof definition.warmup === 'function' ? definition.warmup(params) : (definition.warmup ?? 0);
  } catch (error) {
    problems.push(`warmup: ${describeError(error)}`);
    return 0;
  }
  if (typeof warmup === 'number' && Number.isSafeInteger(warmup) && warmup >= 0) return warmup;
  problems.push(`warmup must be a whole number of bars ≥ 0, got ${String(warmup)}`);
  return 0;
}
