// The account's day as kept across restarts: the net assets of each currency at the market day's first
// reading (what the day's PnL counts from), and the kill switches' peak and day start, in a JSON file, so a
// restart mid-day (or a crash loop) does not reset them. The schedule's account watch and `trader run`'s
// dashboard keep theirs with it.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { AccountBalance } from '../domain/account.js';
import { toWire } from '../domain/decimal.js';
import { timeZoneOf } from '../domain/market-hours.js';
import { Money } from '../domain/money.js';
import { currencyOf, type Market } from '../domain/symbol.js';
import { localDate } from '../domain/time-zone.js';
import { silentLogger, type Logger } from '../log/logger.js';
import { FRESH_EQUITY_WATCH, type EquityWatch } from '../risk/equity-watch.js';
import { writeFileAtomic } from './atomic-file.js';

export interface AccountDayOptions {
  /** Whose local day it is, and whose currency the kill switches watch. */
  readonly market: Market;
  /** Where the day is kept (JSON); only in memory without one. */
  readonly file?: string;
  readonly logger?: Logger;
}

const savedSchema = z.object({
  day: z.string(),
  starts: z.record(z.string(), z.string()),
  peak: z.string().optional(),
  dayStart: z.string().optional(),
  equityDay: z.string().optional(),
});

export class AccountDay {
  readonly zone: string;
  private current = '';
  private starts = new Map<string, Money>();
  /** The kill switches' watch over the home currency's net assets (its owner updates it). */
  equity: EquityWatch = FRESH_EQUITY_WATCH;
  private readonly logger: Logger;

  constructor(private readonly options: AccountDayOptions) {
    this.zone = timeZoneOf(options.market);
    this.logger = options.logger ?? silentLogger;
    this.load();
  }

  /** The market day the starts belong to (YYYY-MM-DD; empty before the first reading). */
  get day(): string {
    return this.current;
  }

  /** Takes a reading at `now`: a new day starts afresh, a currency's first reading is its start. True when the starts changed. */
  observe(balances: readonly AccountBalance[], now: number): boolean {
    const day = localDate(now, this.zone);
    const changed = day !== this.current || balances.some((balance) => !this.starts.has(balance.currency));
    if (day !== this.current) {
      this.current = day;
      this.starts = new Map();
    }
    for (const balance of balances) if (!this.starts.has(balance.currency)) this.starts.set(balance.currency, balance.netAssets);
    return changed;
  }

  /** The net assets of `currency` at the first reading of the day `now` is in; undefined on another day or before it. */
  dayStart(currency: string, now: number): Money | undefined {
    return this.current === localDate(now, this.zone) ? this.starts.get(currency) : undefined;
  }

  /** Writes the file (a failure is logged: the memory stays good for this process). */
  save(): void {
    const { file } = this.options;
    if (file === undefined) return;
    const { peak, dayStart, day } = this.equity;
    const text = JSON.stringify({
      day: this.current,
      starts: Object.fromEntries([...this.starts].map(([currency, value]) => [currency, toWire(value)])),
      ...(peak === undefined ? {} : { peak: toWire(peak) }),
      ...(dayStart === undefined ? {} : { dayStart: toWire(dayStart) }),
      ...(day === undefined ? {} : { equityDay: day }),
    });
    try {
      writeFileAtomic(file, `${text}\n`);
    } catch (error) {
      this.logger.warn({ file, error: (error as Error).message }, 'could not write the account memory file');
    }
  }

  private load(): void {
    const { file } = this.options;
    if (file === undefined) return;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    try {
      const saved = savedSchema.parse(JSON.parse(text));
      // The kill switches watch the home currency's net assets.
      const currency = currencyOf(this.options.market);
      const home = (value: string | undefined): Money | undefined => (value === undefined ? undefined : Money.of(value, currency));
      const starts = new Map(Object.entries(saved.starts).map(([code, value]) => [code, Money.of(value, code)]));
      this.equity = { ...FRESH_EQUITY_WATCH, peak: home(saved.peak), dayStart: home(saved.dayStart), day: saved.equityDay };
      this.current = saved.day;
      this.starts = starts;
    } catch {
      this.logger.warn({ file }, 'ignoring an unreadable account memory file');
    }
  }
}
