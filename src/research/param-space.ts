// The parameter space of an optimization: `--param fast=5:30:5` (a range, ends included), `mode=a,b` (a
// list) or `quantity=100` (fixed); grid enumeration in a fixed order and seeded random sampling.
import { InvalidInputError } from '../domain/errors.js';

/** One parameter's candidate values, as text (the strategy's defaults decide their types). */
export interface ParamAxis {
  readonly name: string;
  readonly values: readonly string[];
}

export type ParamSpace = readonly ParamAxis[];
/** One combination: parameter name → value text. */
export type ParamCombo = Readonly<Record<string, string>>;

/** Above this many combinations a grid is refused (a typo like 1:1000000 would never finish). */
export const MAX_COMBINATIONS = 10_000_000;

export function parseParamSpace(specs: readonly string[]): ParamSpace {
  const axes: ParamAxis[] = [];
  for (const spec of specs) {
    const equals = spec.indexOf('=');
    if (equals <= 0) throw new InvalidInputError(`--param "${spec}" must look like name=5:30:5, name=a,b or name=value`, 'param');
    const name = spec.slice(0, equals).trim();
    if (axes.some((axis) => axis.name === name)) throw new InvalidInputError(`--param ${name} is given twice`, 'param');
    axes.push({ name, values: axisValues(name, spec.slice(equals + 1).trim()) });
  }
  const size = axes.reduce((product, axis) => product * axis.values.length, 1);
  if (size > MAX_COMBINATIONS)
    throw new InvalidInputError(
      `--param: ${size} combinations is more than ${MAX_COMBINATIONS}; use larger steps or --search random`,
      'param',
    );
  return axes;
}

function axisValues(name: string, text: string): string[] {
  if (text.includes(':')) return rangeValues(name, text);
  const values = text.split(',').map((value) => value.trim());
  if (values.length === 1 && values[0] === '') throw new InvalidInputError(`--param ${name}: no value`, 'param');
  // Most likely a value left out by mistake ("5,,7"), not one to skip.
  if (values.includes('')) throw new InvalidInputError(`--param ${name}=${text}: an empty value in the list`, 'param');
  return [...new Set(values)];
}

// start:end[:step], ends included; values are rounded to the places of start and step so 0.1 steps stay exact.
function rangeValues(name: string, text: string): string[] {
  const parts = text.split(':').map((part) => part.trim());
  const numbers = parts.map(Number);
  if (parts.length < 2 || parts.length > 3 || parts.some((part) => part === '') || numbers.some((n) => !Number.isFinite(n)))
    throw new InvalidInputError(`--param ${name}=${text}: a range is start:end or start:end:step, in numbers`, 'param');
  const [start, end, step = 1] = numbers as [number, number, number?];
  if (step <= 0) throw new InvalidInputError(`--param ${name}=${text}: the step must be greater than zero`, 'param');
  if (end < start) throw new InvalidInputError(`--param ${name}=${text}: the end is before the start`, 'param');
  const places = Math.max(decimalPlaces(parts[0]!), decimalPlaces(parts[2] ?? '1'));
  const count = Math.floor((end - start) / step + 1e-9) + 1;
  if (count > MAX_COMBINATIONS) throw new InvalidInputError(`--param ${name}=${text}: ${count} values is too many`, 'param');
  return Array.from({ length: count }, (_, index) => String(Number((start + index * step).toFixed(places))));
}

function decimalPlaces(text: string): number {
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

export function spaceSize(space: ParamSpace): number {
  return space.reduce((product, axis) => product * axis.values.length, 1);
}

/** The combination at grid position `index` (the last parameter varies fastest). */
export function comboAt(space: ParamSpace, index: number): ParamCombo {
  const combo: Record<string, string> = {};
  let rest = index;
  for (let axis = space.length - 1; axis >= 0; axis -= 1) {
    const { name, values } = space[axis]!;
    combo[name] = values[rest % values.length]!;
    rest = Math.floor(rest / values.length);
  }
  return Object.fromEntries(space.map((axis) => [axis.name, combo[axis.name]!]));
}

/**
 * The positions 0 … size − 1 in the seed's random order (a Fisher–Yates shuffle made as it is read, so a
 * search draws only what it takes): the same seed gives the same order, and a longer draw the same start.
 */
export function* shuffledPositions(size: number, seed: number): Generator<number> {
  const random = seededRandom(seed);
  const swapped = new Map<number, number>();
  for (let index = 0; index < size; index += 1) {
    const pick = index + Math.floor(random() * (size - index));
    const value = swapped.get(pick) ?? pick;
    swapped.set(pick, swapped.get(index) ?? index);
    yield value;
  }
}

/** mulberry32: a small, fast, seeded generator of floats in [0, 1); the same seed gives the same stream. */
export function seededRandom(seed: number): () => number {
  // Its state is 32 bits: a larger seed would draw what seed mod 2^32 does.
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffff_ffff)
    throw new RangeError(`seed: a whole number from 0 to 2^32 − 1, got ${seed}`);
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
