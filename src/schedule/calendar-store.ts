// The trading-days cache persisted as a JSON file, so a restart does not re-ask the service for every month.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Logger } from '../log/logger.js';
import { writeFileAtomic } from './atomic-file.js';

/** One market-month as the service gave it. */
export interface CachedMonth {
  readonly market: string;
  /** "YYYY-MM" */
  readonly month: string;
  /** Epoch ms of the fetch, for the TTL. */
  readonly fetchedAt: number;
  readonly tradingDays: readonly string[];
  readonly halfTradingDays: readonly string[];
}

const fileSchema = z.object({
  version: z.literal(1),
  months: z.array(
    z.object({
      market: z.string(),
      month: z.string(),
      fetchedAt: z.number(),
      tradingDays: z.array(z.string()),
      halfTradingDays: z.array(z.string()),
    }),
  ),
});

export class CalendarFileStore {
  constructor(
    private readonly file: string,
    private readonly logger: Logger,
  ) {}

  /** The cached months; an unreadable or foreign file counts as empty (it is only a cache). */
  load(): CachedMonth[] {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return [];
    }
    try {
      const parsed = fileSchema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data.months;
    } catch {
      // falls through to the warning
    }
    this.logger.warn({ file: this.file }, 'ignoring an unreadable trading-days cache file');
    return [];
  }

  save(months: readonly CachedMonth[]): void {
    try {
      writeFileAtomic(this.file, `${JSON.stringify({ version: 1, months }, null, 1)}\n`);
    } catch (error) {
      this.logger.warn({ file: this.file, error: (error as Error).message }, 'could not write the trading-days cache file');
    }
  }
}
