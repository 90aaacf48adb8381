// The risk config (`--risk risk.json`): configured limits on top of the broker's own figures. Parsed
// strictly: unknown keys are refused and every problem is reported at once with its path.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { parseJsonText } from '../domain/json-text.js';
import { Fixed, InvalidInputError, Quantity, parseSymbol, type SecuritySymbol } from '../domain/index.js';

/** A window of local market time, HHMM (begin inclusive, end exclusive), Monday to Friday. */
export interface SessionWindowRule {
  readonly begin: number;
  readonly end: number;
}

/** 'regular': the market's regular sessions (domain REGULAR_SESSIONS), Monday to Friday. */
export type SessionRule = 'regular' | SessionWindowRule;

export interface RiskLimits {
  /** Largest quantity × price of one order, in the order's currency. */
  readonly maxOrderNotional?: Fixed;
  /** Largest absolute position per symbol (shares), counting open orders. */
  readonly maxPositionPerSymbol?: Quantity;
  /** Most orders submitted in any 60 s of clock time, across all strategies. */
  readonly maxOrdersPerMinute?: number;
  readonly allowedSymbols?: readonly SecuritySymbol[];
  readonly allowedSessions?: readonly SessionRule[];
  /** Kill switch: halt new exposure for the rest of the local day once net assets fall this far below the day's first figure. */
  readonly dailyLossLimit?: Fixed;
  /** Kill switch: halt new exposure for the run once net assets fall this fraction (0.2 = 20 %) below their peak. */
  readonly maxDrawdown?: Fixed;
}

export const NO_LIMITS: RiskLimits = {};

const positiveDecimal = z.union([z.number(), z.string()]).transform((value, ctx) => {
  try {
    const decimal = Fixed.of(value);
    if (decimal.isPositive()) return decimal;
  } catch {
    // reported below
  }
  ctx.addIssue({ code: 'custom', message: `must be a positive number, got ${JSON.stringify(value)}` });
  return z.NEVER;
});

const symbol = z.string().transform((text, ctx) => {
  try {
    return parseSymbol(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
    return z.NEVER;
  }
});

const clockTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (24-hour local market time)')
  .transform((text) => Number(text.slice(0, 2)) * 100 + Number(text.slice(3)));

const sessionRule = z.union([
  z.literal('regular'),
  z.strictObject({ begin: clockTime, end: clockTime }).refine((window) => window.begin < window.end, 'begin must be before end'),
]);

export const riskConfigSchema = z.strictObject({
  maxOrderNotional: positiveDecimal.optional(),
  maxPositionPerSymbol: positiveDecimal.transform((value) => Quantity.of(value)).optional(),
  maxOrdersPerMinute: z.number().int().positive().optional(),
  allowedSymbols: z.array(symbol).min(1).optional(),
  allowedSessions: z.array(sessionRule).min(1).optional(),
  dailyLossLimit: positiveDecimal.optional(),
  maxDrawdown: positiveDecimal.refine((value) => value.lt(Fixed.ONE), 'must be a fraction below 1 (0.2 = 20 %)').optional(),
});

/** Validates a parsed config object; `source` (a file name) prefixes the one-line error. */
export function parseRiskConfig(value: unknown, source = 'risk config'): RiskLimits {
  const parsed = riskConfigSchema.safeParse(value);
  if (parsed.success) return dropUndefined(parsed.data);
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top level)'}: ${issue.message}`);
  throw new InvalidInputError(`${source}: ${issues.join('; ')}`, parsed.error.issues[0]?.path.join('.') || undefined);
}

export async function loadRiskConfig(file: string): Promise<RiskLimits> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new InvalidInputError(`${file}: cannot read the risk config (${(error as NodeJS.ErrnoException).code ?? String(error)})`, 'risk');
  }
  return parseRiskConfig(await parseJsonText(text, file, 'risk'), file);
}

function dropUndefined(config: z.output<typeof riskConfigSchema>): RiskLimits {
  return Object.fromEntries(Object.entries(config).filter(([, value]) => value !== undefined)) as RiskLimits;
}
