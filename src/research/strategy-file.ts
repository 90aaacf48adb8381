// A strategy file's definition, for runs that prepare it many times with different parameters.
import type { StrategyDefinition } from '../strategy/define.js';
import { loadStrategy } from '../strategy/loader.js';
import type { ParamDefaults } from '../strategy/params.js';

/** Loads (and checks) the file's default export with its default params. */
export async function loadDefinition(file: string, symbols?: readonly string[]): Promise<StrategyDefinition<ParamDefaults>> {
  const prepared = await loadStrategy(file, symbols === undefined ? {} : { symbols });
  return prepared.definition;
}
