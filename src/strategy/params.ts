// Strategy parameters: typed from their defaults, validated with zod, overridable from the command line
// (`--param fast=5` arrives as text and is coerced by the type of the default).
import { z } from 'zod';
import { InvalidInputError } from '../domain/index.js';

export type ParamValue = number | string | boolean;
export type ParamDefaults = { readonly [key: string]: ParamValue };

/** The params a strategy sees: the defaults' keys, with literal types widened (fast: 10 → fast: number). */
export type Params<D extends ParamDefaults> = {
  readonly [K in keyof D]: D[K] extends number ? number : D[K] extends boolean ? boolean : string;
};

/** Overrides as they come from a CLI (`key=value` text) or from code (typed values). */
export type ParamOverrides = Readonly<Record<string, ParamValue>>;

const BOOLEAN_TEXT: Readonly<Record<string, boolean>> = {
  true: true,
  false: false,
  yes: true,
  no: false,
  '1': true,
  '0': false,
  on: true,
  off: false,
};

/** The zod schema implied by the defaults: each key keeps the type of its default; unknown keys are refused. */
export function schemaFromDefaults(defaults: ParamDefaults): z.ZodType<Readonly<Record<string, ParamValue>>> {
  const shape: Record<string, z.ZodType<ParamValue>> = {};
  for (const [key, value] of Object.entries(defaults)) {
    shape[key] = typeof value === 'number' ? z.number().finite() : typeof value === 'boolean' ? z.boolean() : z.string();
  }
  return z.strictObject(shape);
}

/** Parses `key=value` texts (repeatable `--param`) into overrides; the values stay text until coerced. */
export function parseParamAssignments(assignments: readonly string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const assignment of assignments) {
    const equals = assignment.indexOf('=');
    if (equals <= 0) throw new InvalidInputError(`--param "${assignment}" must look like key=value`, 'param');
    result[assignment.slice(0, equals).trim()] = assignment.slice(equals + 1).trim();
  }
  return result;
}

/**
 * Merges overrides into the defaults and validates the result. Text values are coerced by the type of
 * the default ("5" → 5 for a number param). Every problem is reported at once, as "key: reason" lines.
 */
export function resolveParams(
  defaults: ParamDefaults,
  overrides: ParamOverrides,
  schema: z.ZodType<unknown> | undefined,
): { readonly params: Readonly<Record<string, ParamValue>>; readonly problems: readonly string[] } {
  const problems: string[] = [];
  const unknown = Object.keys(overrides).filter((key) => !Object.hasOwn(defaults, key));
  if (unknown.length > 0) {
    problems.push(
      `unknown param${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${Object.keys(defaults).join(', ') || 'none'})`,
    );
  }
  const merged: Record<string, ParamValue> = { ...defaults };
  for (const [key, value] of Object.entries(overrides)) {
    if (!Object.hasOwn(defaults, key)) continue;
    const coerced = coerce(defaults[key]!, value);
    if (typeof coerced === 'string') problems.push(`${key}: ${coerced}`);
    else merged[key] = coerced.value;
  }
  const checked = (schema ?? schemaFromDefaults(defaults)).safeParse(merged);
  if (!checked.success) {
    for (const issue of checked.error.issues) problems.push(`${issue.path.join('.') || 'params'}: ${issue.message}`);
  }
  return { params: checked.success ? (checked.data as Readonly<Record<string, ParamValue>>) : merged, problems };
}

// Returns the coerced value, or a reason text when the override does not fit the default's type.
function coerce(defaultValue: ParamValue, value: ParamValue): { readonly value: ParamValue } | string {
  if (typeof value !== 'string' || typeof defaultValue === 'string') return { value };
  const text = value.trim();
  if (typeof defaultValue === 'number') {
    const number = text === '' ? Number.NaN : Number(text);
    return Number.isFinite(number) ? { value: number } : `"${value}" is not a number`;
  }
  const flag = BOOLEAN_TEXT[text.toLowerCase()];
  return flag === undefined ? `"${value}" is not true or false` : { value: flag };
}
