// The venue's settings: a strict, JSON-able config (flags and config files map onto it) with documented
// defaults. Money and factors are given as decimal strings (numbers accepted) and kept fixed-point.
import { z } from 'zod';
import { Fixed } from '../../domain/fixed.js';
import { parseSymbol, type SecuritySymbol } from '../../domain/symbol.js';
import { parseTickRule, TICK_TABLES } from '../../domain/tick-rules.js';
import { parseStrict } from './config-errors.js';
import { faultPlanSchema } from './faults.js';

const decimalText = z.union([z.string(), z.number()]).transform((value, context) => {
  try {
    return Fixed.of(typeof value === 'string' ? value.trim() : value);
  } catch {
    context.addIssue({ code: 'custom', message: `"${value}" is not a decimal number` });
    return z.NEVER;
  }
});

const factor = decimalText.refine((value) => value.isPositive() && value.lte(Fixed.ONE), 'must be in (0, 1]');

const marginRatioSchema = z
  .strictObject({ im: factor, mm: factor, fm: factor })
  .refine((ratio) => ratio.im.gte(ratio.mm) && ratio.mm.gte(ratio.fm), 'factors must satisfy im >= mm >= fm');

/** Short positions may be asked for more than their value (e.g. 1.5): factors up to 10. */
const shortFactor = decimalText.refine((value) => value.isPositive() && value.lte(Fixed.of(10)), 'must be in (0, 10]');

const shortMarginRatioSchema = z
  .strictObject({ im: shortFactor, mm: shortFactor, fm: shortFactor })
  .refine((ratio) => ratio.im.gte(ratio.mm) && ratio.mm.gte(ratio.fm), 'factors must satisfy im >= mm >= fm');

const symbolKey = z.string().transform((text, context) => {
  try {
    return parseSymbol(text);
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

const tickRule = z.string().transform((text, context) => {
  const rule = parseTickRule(text);
  if (rule === undefined) {
    context.addIssue({
      code: 'custom',
      message: `"${text}" is neither a tick table (${TICK_TABLES.join(', ')}) nor a positive decimal step`,
    });
    return z.NEVER;
  }
  return rule;
});

/** What is known of one symbol; anything left out comes from its market's defaults (domain/instrument.ts). */
const instrumentSchema = z.strictObject({
  name: z.string().optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'currency must be a 3-letter code')
    .optional(),
  lotSize: z.number().int().positive().optional(),
  tick: tickRule.optional(),
  fractionalShares: z.boolean().optional(),
});

const instrumentsSchema = z.record(symbolKey, instrumentSchema).superRefine((instruments, context) => {
  for (const [symbol, instrument] of Object.entries(instruments)) {
    if (instrument.fractionalShares === true && !symbol.endsWith('.US'))
      context.addIssue({ code: 'custom', path: [symbol, 'fractionalShares'], message: 'fractional shares trade only in the US market' });
  }
});

export const FILL_MODELS = ['next-open', 'close'] as const;
export type FillModel = (typeof FILL_MODELS)[number];

/** Order in which a bar's extremes are visited between its open and close. */
export const INTRABAR_PATHS = ['nearest-first', 'bar-direction', 'high-first', 'low-first'] as const;
export type IntrabarPath = (typeof INTRABAR_PATHS)[number];

export const FEE_SETTINGS = ['none', 'hk-stock', 'us-stock', 'by-market'] as const;

export const venueSettingsSchema = z.strictObject({
  /** Starting cash per currency. */
  cash: z.record(z.string().regex(/^[A-Z]{3}$/, 'currency must be a 3-letter code'), decimalText).default({ HKD: Fixed.of(1_000_000) }),
  /** Margin factors; the default {1, 1, 1} is a cash account (no leverage). */
  marginRatios: z
    .strictObject({
      default: marginRatioSchema.default({ im: Fixed.ONE, mm: Fixed.ONE, fm: Fixed.ONE }),
      symbols: z.record(symbolKey, marginRatioSchema).default({} as Record<SecuritySymbol, never>),
    })
    .default({ default: { im: Fixed.ONE, mm: Fixed.ONE, fm: Fixed.ONE }, symbols: {} as Record<SecuritySymbol, never> }),
  /** A named schedule, or a flat commission rate (fraction of traded value per fill). */
  fees: z.union([z.enum(FEE_SETTINGS), z.strictObject({ commissionRate: z.number().min(0).max(1) })]).default('none'),
  fillModel: z.enum(FILL_MODELS).default('next-open'),
  /** Adverse price move on market-style fills, in basis points. */
  slippageBps: z.number().min(0).max(10_000).default(0),
  /** Largest share of a bar's volume the venue's fills may take (null: no cap); zero-volume bars never cap. */
  volumeParticipation: z.number().gt(0).max(1).nullable().default(1),
  intrabarPath: z.enum(INTRABAR_PATHS).default('nearest-first'),
  /** Reject orders outside the market's regular sessions ("market closed"); off for daily-bar backtests. */
  sessionCheck: z.boolean().default(false),
  /** Allow sells beyond the held quantity, margined at the symbol's initial margin factor. */
  shortSelling: z.boolean().default(false),
  /**
   * Margin factors of short positions (initial, maintenance, forced), for every symbol; null (the default):
   * shorts use the symbol's own factors, as longs do.
   */
  shortMarginRatios: shortMarginRatioSchema.nullable().default(null),
  /** Annual borrow fee on the value of short positions, a fraction; charged for each market day a short is held. */
  borrowFeeRate: z.number().min(0).max(1).default(0),
  /** Lot size, tick rule, currency, name per symbol (static info, securities file); the rest by market. */
  instruments: instrumentsSchema.default({}),
  seed: z.number().int().default(1),
  accountNo: z.string().min(1).default('SIM000001'),
  /** Display names reported as stock_name. */
  stockNames: z.record(symbolKey, z.string()).default({} as Record<SecuritySymbol, string>),
  faults: faultPlanSchema.default(faultPlanSchema.parse({})),
});

export type VenueSettings = z.output<typeof venueSettingsSchema>;
export type VenueSettingsInput = z.input<typeof venueSettingsSchema>;

// Research runs make a venue per trial from the same settings: each distinct input is validated once. The
// parsed settings are never changed, so they can be shared; the cache holds the last few inputs.
const parsedSettings = new Map<string, VenueSettings>();
const PARSED_KEPT = 8;

/** Validates venue settings, filling defaults; every problem is reported at once with its path. */
export function parseVenueSettings(input: unknown): VenueSettings {
  const key = JSON.stringify(input ?? {});
  const known = parsedSettings.get(key);
  if (known !== undefined) return known;
  const settings = parseStrict(venueSettingsSchema, input ?? {}, 'venue');
  if (parsedSettings.size >= PARSED_KEPT) parsedSettings.delete(parsedSettings.keys().next().value!);
  parsedSettings.set(key, settings);
  return settings;
}
