// The venue's settings: a strict, JSON-able config (flags and config files map onto it) with documented
// defaults. Money and factors are given as decimal strings (numbers accepted) and kept fixed-point.
import { z } from 'zod';
import { Fixed } from '../../domain/fixed.js';
import { parseSymbol, type SecuritySymbol } from '../../domain/symbol.js';
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

const symbolKey = z.string().transform((text, context) => {
  try {
    return parseSymbol(text);
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
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
  seed: z.number().int().default(1),
  accountNo: z.string().min(1).default('SIM000001'),
  /** Display names reported as stock_name. */
  stockNames: z.record(symbolKey, z.string()).default({} as Record<SecuritySymbol, string>),
  faults: faultPlanSchema.default(faultPlanSchema.parse({})),
});

export type VenueSettings = z.output<typeof venueSettingsSchema>;
export type VenueSettingsInput = z.input<typeof venueSettingsSchema>;

/** Validates venue settings, filling defaults; every problem is reported at once with its path. */
export function parseVenueSettings(input: unknown): VenueSettings {
  return parseStrict(venueSettingsSchema, input ?? {}, 'venue');
}
