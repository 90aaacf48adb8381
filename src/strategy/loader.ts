// Loads a strategy file (.ts, .mts, .js or .mjs, any path): compiles it, imports it, checks its default export
// is a strategy, and prepares it with the overrides. Every failure names the file and the cause; a file that
// does not compile names file:line:col and shows the line.
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompileFailure, compileStrategy, type CompileProblem } from './compile.js';
import { runtimeModulesInUse } from './installation.js';
import { STRATEGY_TAG, type StrategyDefinition } from './define.js';
import { StrategyLoadError, describeError } from './errors.js';
import type { ParamDefaults } from './params.js';
import { prepareStrategy, type PreparedStrategy, type StrategyOverrides } from './prepare.js';

/** How many times a strategy was loaded afresh: each such load imports a new copy of its module. */
let freshLoads = 0;

/**
 * Loads a strategy. `afresh` evaluates its module once more (a new copy, with its local imports, which the
 * bundle holds): what the module works out when loaded, such as a random number, is worked out again.
 */
export async function loadStrategy(
  file: string,
  overrides: StrategyOverrides = {},
  options: { readonly afresh?: boolean } = {},
): Promise<PreparedStrategy> {
  const path = isAbsolute(file) ? file : resolve(file);
  const shown = displayPath(path);
  const found = await stat(path).catch(() => undefined);
  if (found === undefined) throw new StrategyLoadError(shown, 'no such strategy file');
  // A folder (or '' for the working one) reached the compiler, which said only: Could not resolve "<folder>".
  if (found.isDirectory()) throw new StrategyLoadError(shown, 'is a folder: name a strategy file (.ts, .mts, .js or .mjs)');
  let url: string;
  try {
    url = await compileStrategy(path);
    if (options.afresh === true) url = `${url}?afresh=${++freshLoads}`;
  } catch (error) {
    if (error instanceof CompileFailure) throw new StrategyLoadError(shown, 'does not compile', error, formatProblems(error.problems));
    throw new StrategyLoadError(shown, `cannot compile: ${describeError(error)}`, error);
  }
  // Stack traces of the strategy then name its own .ts lines (the compiled module carries a source map).
  process.setSourceMapsEnabled(true);
  let module: Record<string, unknown>;
  try {
    const modules = runtimeModulesInUse();
    module = modules === undefined ? ((await import(url)) as Record<string, unknown>) : await modules.importModule(url);
  } catch (error) {
    const message = firstLine(describeError(error));
    throw new StrategyLoadError(
      shown,
      `cannot load: ${runtimeModulesInUse()?.inMessage(message) ?? message}${placeIn(error, path)}`,
      error,
    );
  }
  const definition = module['default'];
  if (definition === undefined)
    throw new StrategyLoadError(shown, 'has no default export (expected `export default defineStrategy({...})`)');
  if (!isStrategyDefinition(definition)) {
    throw new StrategyLoadError(shown, 'the default export is not a strategy (expected `export default defineStrategy({...})`)');
  }
  return prepareStrategy(definition, overrides, shown);
}

/**
 * A definition made by defineStrategy of any copy of this package (a project's own node_modules, a global
 * install): recognised by its plain-string tag and shape, never by module identity.
 */
export function isStrategyDefinition(value: unknown): value is StrategyDefinition<ParamDefaults> {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<StrategyDefinition<ParamDefaults>>;
  return candidate.tag === STRATEGY_TAG && typeof candidate.name === 'string' && typeof candidate.run === 'function';
}

/** `file:line:col: text`, then the line and a caret under the column, for each problem. */
export function formatProblems(problems: readonly CompileProblem[]): string {
  return problems
    .map((problem) => {
      if (problem.file === undefined) return problem.text;
      const place = `${displayPath(problem.file)}:${problem.line}:${problem.column}`;
      const number = String(problem.line);
      const gutter = ' '.repeat(number.length);
      return `${place}: ${problem.text}\n  ${number} | ${problem.lineText}\n  ${gutter} | ${' '.repeat(problem.column - 1)}^`;
    })
    .join('\n');
}

// The first frame of the strategy file in a (source-mapped) stack: where a top-level throw happened.
function placeIn(error: unknown, path: string): string {
  const stack = error instanceof Error ? error.stack : undefined;
  if (stack === undefined) return '';
  for (const match of stack.matchAll(/(file:\/\/[^\s)]+|\/[^\s():]+):(\d+):(\d+)/g)) {
    const file = match[1]!.startsWith('file:') ? fileURLToPath(match[1]!) : match[1]!;
    if (file === path) return ` (at ${displayPath(path)}:${match[2]}:${match[3]})`;
  }
  return '';
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.trim();
}

// Paths inside the working folder are shown relative to it, the way a user typed them.
function displayPath(path: string): string {
  const local = relative(process.cwd(), path);
  return local.startsWith('..') || isAbsolute(local) ? path : local;
}
