// A strategy definition plus its run settings (symbols, period, params) after overrides and validation:
// what the runtime starts.
import { InvalidInputError, parsePeriod, parseSymbol, type Period, type SecuritySymbol } from '../domain/index.js';
import type { StrategyDefinition } from './define.js';
import { describeError } from './errors.js';
import { resolveParams, type ParamDefaults, type ParamOverrides, type ParamValue } from './params.js';

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
  problems.push(...resolved.problems.map((problem) => `param ${problem}`));
  // Bad settings are user input (exit status 2 on the CLI), unlike a file that cannot load.
  if (problems.length > 0) throw new InvalidInputError(`${source}: ${problems.join('; ')}`, 'params');
  return { definition: definition as unknown as StrategyDefinition<ParamDefaults>, name: definition.name, source, symbols: [...new Set(symbols)], period, params: resolved.params };
}
