// A flag given an empty value (`--journal ''`, or `--journal` with another flag right after it) is refused by
// name: yargs reads both as '', which commands took as "not given" or as a name (a journal in a temporary
// SQLite database, a schedule's state files in the working folder).
import type { MiddlewareFunction } from 'yargs';
import { InvalidInputError } from '../domain/errors.js';

/** Flags whose bare form means something: --json (stdout) where it takes a file, --ui (the default port). */
const BARE_FORMS: ReadonlySet<string> = new Set(['json', 'ui']);

interface DeclaredStrings {
  getOptions(): { readonly string: readonly string[] };
}

function refuseEmptyFlags(args: Readonly<Record<string, unknown>>, parser: DeclaredStrings, argv: readonly string[]): void {
  for (const flag of parser.getOptions().string) {
    const value = args[flag];
    if (BARE_FORMS.has(flag) || typeof value !== 'string' || value.trim() !== '') continue;
    // Positional arguments are declared as strings too; only a flag typed on the command line is meant.
    if (!argv.some((word) => word === `--${flag}` || word.startsWith(`--${flag}=`))) continue;
    throw new InvalidInputError(`--${flag} needs a value`, `--${flag}`);
  }
}

/** As global middleware over the command line `argv`. */
export function emptyFlagsMiddleware(argv: readonly string[]): MiddlewareFunction {
  return ((args: Readonly<Record<string, unknown>>, parser: DeclaredStrings) =>
    refuseEmptyFlags(args, parser, argv)) as unknown as MiddlewareFunction;
}
