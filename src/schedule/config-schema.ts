// The schedule config file's shape (zod, strict: unknown keys are errors). Cross-field rules live in config.ts.
import { z } from 'zod';
import { PRICE_ADJUSTMENTS } from '../domain/corporate-action.js';
import { PERIODS } from '../domain/period.js';
import { MARKETS, parseSymbol } from '../domain/symbol.js';
import { cronProblem } from './cron.js';
import { durationSchema } from './duration.js';
import { TASKS } from './job.js';

const cronSchema = z.string().superRefine((expression, context) => {
  const problem = cronProblem(expression);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: `invalid cron expression "${expression}" (${problem})` });
});

const timeZoneSchema = z.string().superRefine((zone, context) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    context.addIssue({
      code: 'custom',
      message: `unknown time zone "${zone}" (use an IANA name such as Asia/Hong_Kong or America/New_York)`,
    });
  }
});

const symbolSchema = z.string().transform((text, context) => {
  try {
    return parseSymbol(text);
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

const backoffSchema = z.strictObject({
  initial: durationSchema.optional(),
  max: durationSchema.optional(),
  jitter: z.boolean().optional(),
});

const periodSchema = z.enum(PERIODS, { error: (issue) => `unknown period "${String(issue.input)}" (use ${PERIODS.join(', ')})` });

const dateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a YYYY-MM-DD date');

const positiveAmount = z
  .union([z.number(), z.string()])
  .refine((value) => /^\d+(\.\d+)?$/.test(String(value)) && Number(value) > 0, 'must be a positive amount');

const shortFactor = z.number().gt(0, 'must be in (0, 10]').max(10, 'must be in (0, 10]');

/** The built-in simulator of a paper schedule: what it replays, how fast, and the paper account's cash. */
const paperSchema = z
  .strictObject({
    data: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    from: dateSchema.optional(),
    speed: z.number().positive('must be greater than zero').optional(),
    cash: positiveAmount.optional(),
    onBadRow: z.enum(['fail', 'skip'], { error: 'must be "fail" (stop on a bad CSV row) or "skip" (drop it with a warning)' }).optional(),
    short: z.boolean().optional(),
    shortMargin: z
      .strictObject({ im: shortFactor, mm: shortFactor, fm: shortFactor })
      .refine((ratio) => ratio.im >= ratio.mm && ratio.mm >= ratio.fm, 'factors must satisfy im >= mm >= fm')
      .optional(),
    borrowRate: z.number().min(0, 'must be from 0 to 1 (a fraction a year)').max(1, 'must be from 0 to 1 (a fraction a year)').optional(),
    adjust: z
      .enum(PRICE_ADJUSTMENTS, {
        error: 'must be "none" (apply dividends and splits beside the data) or "forward" (prices already adjusted)',
      })
      .optional(),
  })
  .refine((paper) => paper.borrowRate === undefined || paper.short === true, {
    message: 'borrowRate needs short: true',
    path: ['borrowRate'],
  });

const webhookSchema = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

const PORT_RANGE = 'must be a port number from 0 to 65535 (0 picks a free one)';
const portSchema = z.number().int(PORT_RANGE).min(0, PORT_RANGE).max(65_535, PORT_RANGE);

/** The dashboard (src/ops): `ui: true` serves it on the health port (or the default port without one); false: off. */
const uiSchema = z.union(
  [
    z.boolean(),
    z.strictObject({
      port: portSchema.optional(),
      host: z.string().min(1).optional(),
      tokenFile: z.string().min(1).optional(),
      readOnly: z.boolean().optional(),
      metricsPort: portSchema.optional(),
    }),
  ],
  { error: 'must be true, false or a map of port, host, tokenFile, readOnly, metricsPort' },
);

/** Telegram: the chats to notify and obey; the bot's token comes from the environment only. */
const telegramSchema = z.strictObject({
  chats: z.array(z.number().int('must be a chat id (an integer)')).min(1, 'name at least one chat id'),
  apiRoot: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
});

export const rawJobSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be letters, digits, ".", "_" or "-"'),
  strategy: z.string().min(1).optional(),
  task: z.enum(TASKS, { error: (issue) => `unknown task "${String(issue.input)}" (known: ${TASKS.join(', ')})` }).optional(),
  symbols: z.array(symbolSchema).optional(),
  params: z
    .record(z.string(), z.union([z.number(), z.string(), z.boolean()], { error: 'must be a number, a string or true/false' }))
    .optional(),
  period: periodSchema.optional(),
  market: z.enum(MARKETS, { error: (issue) => `unknown market "${String(issue.input)}" (use ${MARKETS.join(', ')})` }).optional(),
  timezone: timeZoneSchema.optional(),
  start: cronSchema.optional(),
  stop: cronSchema.optional(),
  cron: cronSchema.optional(),
  flattenAtStop: z.boolean().optional(),
  days: z.enum(['trading', 'all'], { error: 'must be "trading" (the market\'s trading days) or "all" (every day)' }).optional(),
  runFor: durationSchema.optional(),
  lookback: durationSchema.optional(),
  dataDir: z.string().min(1).optional(),
  maxRestarts: z.number().int().min(0).optional(),
  backoff: backoffSchema.optional(),
});
export type RawJob = z.infer<typeof rawJobSchema>;

/** The top level; `jobs` entries are checked one by one (rawJobSchema) so every job's problems are reported. */
export const rawConfigSchema = z.strictObject({
  timezone: timeZoneSchema.optional(),
  mode: z.enum(['paper', 'live'], { error: (issue) => `unknown mode "${String(issue.input)}" (use paper or live)` }).default('paper'),
  /** Default: paper-journal.sqlite (paper) or journal.sqlite (live) in the state dir. */
  journal: z.string().min(1).optional(),
  stateDir: z.string().min(1).default('state'),
  paper: paperSchema.optional(),
  risk: z.record(z.string(), z.unknown()).default({}),
  notify: z
    .strictObject({
      webhook: webhookSchema,
      retry: z
        .strictObject({
          attempts: z.number().int().min(1).optional(),
          initialDelay: durationSchema.optional(),
          maxDelay: durationSchema.optional(),
        })
        .optional(),
      timeout: durationSchema.optional(),
      queueLimit: z.number().int().min(1).optional(),
    })
    .optional(),
  healthPort: portSchema.optional(),
  ui: uiSchema.optional(),
  telegram: telegramSchema.optional(),
  outageLimit: durationSchema.default(60_000),
  tokenRefreshLead: durationSchema.default(7 * 86_400_000),
  stopTimeout: durationSchema.default(30_000),
  accountCheck: durationSchema.default(30_000),
  calendar: z.strictObject({ cacheFile: z.string().min(1).optional(), ttl: durationSchema.optional() }).optional(),
  restart: z
    .strictObject({ maxRestarts: z.number().int().min(0).optional(), window: durationSchema.optional(), backoff: backoffSchema.optional() })
    .optional(),
  jobs: z.array(z.unknown()).min(1, 'at least one job is required'),
});
export type RawConfig = z.infer<typeof rawConfigSchema>;
