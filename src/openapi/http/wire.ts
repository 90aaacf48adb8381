// Loose validation of service payloads (zod): unknown fields are dropped, wire strings become domain values
// (Price, Quantity, Fixed; Decimals for figures that are no domain value) and epoch milliseconds, and a
// missing or malformed required field is a BadResponseError naming its path.
import { z } from 'zod';
import { Decimal, parseDecimal } from '../../domain/decimal.js';
import { Fixed } from '../../domain/fixed.js';
import { Price } from '../../domain/price.js';
import { Quantity } from '../../domain/quantity.js';
import { parseSymbol, type SecuritySymbol } from '../../domain/symbol.js';
import { BadResponseError } from './errors.js';

type Raw = string | number | null | undefined;
const raw = z.union([z.string(), z.number()]);
const rawOptional = z.union([z.string(), z.number(), z.null()]).optional();

function toDecimal(text: string, context: z.RefinementCtx): Decimal {
  try {
    return parseDecimal(text);
  } catch {
    context.addIssue({ code: 'custom', message: `"${text}" is not a decimal number` });
    return z.NEVER;
  }
}

const isBlank = (value: Raw): value is '' | null | undefined => value === undefined || value === null || String(value).trim() === '';

/** A required decimal (the service writes decimals as strings; numbers are tolerated). */
export const decimal = raw.transform((value, context) => toDecimal(String(value), context));
/** A required field where "" means zero (position figures). */
export const decimalEmptyIsZero = raw.transform((value, context) => (isBlank(value) ? new Decimal(0) : toDecimal(String(value), context)));
/** Absent, null or "" mean none. */
export const optionalDecimal = rawOptional.transform((value, context) => (isBlank(value) ? undefined : toDecimal(String(value), context)));
/** Like optionalDecimal, and zero also means none (executed price "0" before the first fill). */
export const optionalDecimalZeroIsNone = optionalDecimal.transform((value) => (value === undefined || value.isZero() ? undefined : value));

function toValue<T>(make: (text: string) => T, text: string, context: z.RefinementCtx): T {
  try {
    return make(text.trim());
  } catch {
    context.addIssue({ code: 'custom', message: `"${text}" is not a decimal number` });
    return z.NEVER;
  }
}

const priceOf = (text: string): Price => Price.of(text);
const quantityOf = (text: string): Quantity => Quantity.of(text);
const fixedOf = (text: string): Fixed => Fixed.of(text);

/** A required price. */
export const price = raw.transform((value, context) => toValue(priceOf, String(value), context));
/** A price where absent, null or "" mean none. */
export const optionalPrice = rawOptional.transform((value, context) =>
  isBlank(value) ? undefined : toValue(priceOf, String(value), context),
);
/** Like optionalPrice, and zero also means none (executed price "0" before the first fill). */
export const optionalPriceZeroIsNone = optionalPrice.transform((value) => (value === undefined || value.isZero() ? undefined : value));
/** A price where "" means zero (position figures). */
export const priceEmptyIsZero = raw.transform((value, context) => (isBlank(value) ? Price.ZERO : toValue(priceOf, String(value), context)));
/** A required quantity. */
export const quantity = raw.transform((value, context) => toValue(quantityOf, String(value), context));
/** A quantity where "" means zero. */
export const quantityEmptyIsZero = raw.transform((value, context) =>
  isBlank(value) ? Quantity.ZERO : toValue(quantityOf, String(value), context),
);
/** A quantity where absent, null or "" mean none. */
export const optionalQuantity = rawOptional.transform((value, context) =>
  isBlank(value) ? undefined : toValue(quantityOf, String(value), context),
);
/** A required amount or factor without a unit (amounts become Money with the currency their row names). */
export const fixed = raw.transform((value, context) => toValue(fixedOf, String(value), context));
/** An amount or factor where absent, null or "" mean none. */
export const optionalFixed = rawOptional.transform((value, context) =>
  isBlank(value) ? undefined : toValue(fixedOf, String(value), context),
);

/** Free text that may be absent: absent and null become "". */
export const text = rawOptional.transform((value) => (value === undefined || value === null ? '' : String(value)));
/** Required text or id (numbers tolerated, e.g. ids written as numbers). */
export const requiredText = raw.transform(String);

/** A `CODE.MARKET` symbol, normalised like user input. */
export const securitySymbol = z.string().transform((value, context): SecuritySymbol => {
  try {
    return parseSymbol(value);
  } catch {
    context.addIssue({ code: 'custom', message: `"${value}" is not a CODE.MARKET symbol` });
    return z.NEVER;
  }
});

/** An integer that may come as a number or a numeric string. */
export const integer = raw.transform((value, context) => {
  const number = Number(value);
  if (String(value).trim() === '' || !Number.isInteger(number)) {
    context.addIssue({ code: 'custom', message: `"${value}" is not an integer` });
    return z.NEVER;
  }
  return number;
});

/** Unix seconds (string or number) to epoch ms; required. */
export const seconds = raw.transform((value, context) => {
  const number = Number(value);
  if (String(value).trim() === '' || !Number.isFinite(number)) {
    context.addIssue({ code: 'custom', message: `"${value}" is not a unix time in seconds` });
    return z.NEVER;
  }
  return Math.round(number * 1000);
});
/** Unix seconds where absent, "" and "0" mean none. */
export const optionalSeconds = rawOptional.transform((value) => {
  if (isBlank(value) || Number(value) === 0 || !Number.isFinite(Number(value))) return undefined;
  return Math.round(Number(value) * 1000);
});
function toTime(value: Raw, context: z.RefinementCtx): number | undefined {
  if (isBlank(value)) return undefined;
  const number = Number(value);
  if (Number.isFinite(number)) return number === 0 ? undefined : Math.round(number * 1000);
  const parsed = Date.parse(String(value));
  if (Number.isNaN(parsed)) {
    context.addIssue({ code: 'custom', message: `"${value}" is neither unix seconds nor an RFC 3339 time` });
    return z.NEVER;
  }
  return parsed;
}

/** A time as unix seconds or RFC 3339 (the content and token APIs document neither precisely). */
export const flexibleTime = rawOptional.transform(toTime);
/** Like flexibleTime, but required. */
export const time = raw.transform((value, context) => {
  const parsed = toTime(value, context);
  if (parsed !== undefined) return parsed;
  context.addIssue({ code: 'custom', message: 'is empty' });
  return z.NEVER;
});

/** One of a vocabulary, required. */
export function choice<T extends string>(values: readonly T[]) {
  return z.string().transform((value, context) => {
    if ((values as readonly string[]).includes(value)) return value as T;
    context.addIssue({ code: 'custom', message: `"${value}" is not one of ${values.join(', ')}` });
    return z.NEVER;
  });
}

/** One of a vocabulary; anything else (absent, "", "UnknownOutsideRth") means none. */
export function optionalChoice<T extends string>(values: readonly T[]) {
  return rawOptional.transform((value) => ((values as readonly string[]).includes(String(value)) ? (value as T) : undefined));
}

/** Validates `data` against `schema`; the error names the first bad field, e.g. `list[0].total_cash`. */
export function parseWire<S extends z.ZodType>(schema: S, data: unknown, request: string): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = formatPath(issue.path);
  const missing = valueAt(data, issue.path) === undefined;
  const problem = missing ? 'is missing' : issue.message.replace(/^Invalid input: /, '');
  throw new BadResponseError(
    `response of ${request}: field ${field} ${problem}`,
    { request, httpStatus: undefined, traceId: undefined },
    field,
  );
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'data';
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`)).join('');
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value;
}
