// A flag that takes one value, given twice, is refused by name before a command reads it.
import type { MiddlewareFunction } from 'yargs';
import { InvalidInputError } from '../domain/errors.js';

/** What yargs tells of the options declared for the command being run (not in its type declarations). */
interface DeclaredOptions {
  getOptions(): {
    readonly key: Readonly<Record<string, unknown>>;
    readonly array: readonly string[];
    readonly boolean: readonly string[];
    readonly count: readonly string[];
  };
}

/**
 * yargs hands a command every value of a repeated flag as an array: commands read it as the values joined by
 * commas ("--cash: "5,6" is not a decimal number"), took the list as one (--symbols A --symbols B) or failed
 * on it. Flags declared repeatable (arrays) and switches (booleans, which yargs folds into one) are left alone.
 */
function refuseRepeatedFlags(args: Readonly<Record<string, unknown>>, parser: DeclaredOptions): void {
  const options = parser.getOptions();
  const repeatable = new Set([...options.array, ...options.boolean, ...options.count]);
  for (const flag of Object.keys(options.key)) {
    const value = args[flag];
    if (repeatable.has(flag) || !Array.isArray(value)) continue;
    throw new InvalidInputError(`--${flag} given ${value.length} times (${value.join(', ')}): give it once`, `--${flag}`);
  }
}

/** As global middleware: yargs passes the parser of the running command as the second argument. */
export const repeatedFlagsMiddleware = refuseRepeatedFlags as unknown as MiddlewareFunction;
