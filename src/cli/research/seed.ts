// --seed of the research commands: the random generator (mulberry32) keeps 32 bits of state, so the seeds
// that draw differently are 0 … 2^32 − 1; a larger one would silently draw what a smaller one does.
import type { Options } from 'yargs';
import { InvalidInputError } from '../../domain/errors.js';

export const MAX_SEED = 2 ** 32 - 1;

/** Read as text, so a refused seed is echoed as typed (a number past 2^53 would be shown rounded). */
export function seedOption(describe: string) {
  return {
    type: 'string',
    defaultDescription: '1',
    describe: `${describe} (a whole number from 0 to ${MAX_SEED})`,
  } as const satisfies Options;
}

export function parseSeed(value: string | number | undefined): number {
  if (value === undefined) return 1;
  const text = String(value).trim();
  const seed = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(seed <= MAX_SEED)) throw new InvalidInputError(`--seed: a whole number from 0 to ${MAX_SEED}, got ${String(value)}`, '--seed');
  return seed;
}
