// Loads a strategy file (.ts or .js, any path) by dynamic import, checks its default export is a strategy,
// and prepares it with the overrides. Every failure names the file and the cause.
import { access } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { STRATEGY_TAG, type StrategyDefinition } from './define.js';
import { StrategyLoadError, describeError } from './errors.js';
import type { ParamDefaults } from './params.js';
import { prepareStrategy, type PreparedStrategy, type StrategyOverrides } from './prepare.js';

export async function loadStrategy(file: string, overrides: StrategyOverrides = {}): Promise<PreparedStrategy> {
  const path = isAbsolute(file) ? file : resolve(file);
  const shown = displayPath(path);
  try {
    await access(path);
  } catch {
    throw new StrategyLoadError(shown, 'no such strategy file');
  }
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    throw new StrategyLoadError(shown, `cannot load: ${firstLine(describeError(error))}${packageHint(error)}`, error);
  }
  const definition = module['default'];
  if (definition === undefined)
    throw new StrategyLoadError(shown, 'has no default export (expected `export default defineStrategy({...})`)');
  if (!isStrategyDefinition(definition)) {
    throw new StrategyLoadError(shown, 'the default export is not a strategy (expected `export default defineStrategy({...})`)');
  }
  return prepareStrategy(definition, overrides, shown);
}

export function isStrategyDefinition(value: unknown): value is StrategyDefinition<ParamDefaults> {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<StrategyDefinition<ParamDefaults>>;
  return candidate.tag === STRATEGY_TAG && typeof candidate.name === 'string' && typeof candidate.run === 'function';
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!.trim();
}

// Node resolves a strategy's packages (rxjs, zod…) from the strategy's own folder, not from this project's.
function packageHint(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return '';
  return " (packages are resolved from the strategy file's folder: keep strategies inside the project, or install the package next to the file)";
}

// Paths inside the working folder are shown relative to it, the way a user typed them.
function displayPath(path: string): string {
  const local = relative(process.cwd(), path);
  return local.startsWith('..') || isAbsolute(local) ? path : local;
}
