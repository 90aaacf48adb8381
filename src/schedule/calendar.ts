// Market trading days (full, half, closed) from the service's trading-days query, cached per market-month,
// with a weekday-only fallback (and a warning) while the service cannot answer.
import type { Clock } from '../domain/clock.js';
import { halfDaySessions, timeZoneOf } from '../domain/market-hours.js';
import type { Market } from '../domain/symbol.js';
import { fromLocal } from '../domain/time-zone.js';
import { silentLogger, type Logger } from '../log/logger.js';
import type { CachedMonth, CalendarFileStore } from './calendar-store.js';

export interface TradingDays {
  /** Dates as "YYYY-MM-DD" or the service's "YYYYMMDD". */
  readonly tradingDays: readonly string[];
  readonly halfTradingDays: readonly string[];
}

/** The service's trading-days query (socket cmd 9). `from`/`to` are "YYYY-MM-DD", inclusive, within one month. */
export interface TradingDaysSource {
  tradingDays(market: Market, from: string, to: string): Promise<TradingDays>;
}

export type DayKind = 'full' | 'half' | 'closed';

export interface TradingDay {
  readonly market: Market;
  /** "YYYY-MM-DD" in the market's zone. */
  readonly date: string;
  readonly kind: DayKind;
  /**
   * 'fallback': the service did not answer and weekdays were taken as full trading days; 'unchecked': the
   * job runs every day (`days: all`), so the calendar was not asked.
   */
  readonly source: 'service' | 'fallback' | 'unchecked';
}

export interface MarketCalendarOptions {
  readonly clock: Clock;
  /** Without a source every day comes from the weekday fallback. */
  readonly source?: TradingDaysSource;
  readonly store?: CalendarFileStore;
  readonly logger?: Logger;
  /** How long a fetched month is trusted (holiday lists change rarely, but they do change). */
  readonly ttlMs?: number;
  /** How long to wait before asking a failing service again. */
  readonly retryMs?: number;
}

export class MarketCalendar {
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly ttlMs: number;
  private readonly retryMs: number;
  private readonly months = new Map<string, CachedMonth>();
  private readonly inFlight = new Map<string, Promise<CachedMonth | undefined>>();
  private readonly failedAt = new Map<string, number>();

  constructor(private readonly options: MarketCalendarOptions) {
    this.clock = options.clock;
    this.logger = options.logger ?? silentLogger;
    this.ttlMs = options.ttlMs ?? 24 * 3_600_000;
    this.retryMs = options.retryMs ?? 10 * 60_000;
    for (const month of options.store?.load() ?? []) this.months.set(`${month.market}|${month.month}`, month);
  }

  /** What kind of day `date` ("YYYY-MM-DD") is for a market. Never throws: falls back to weekdays. */
  async day(market: Market, date: string): Promise<TradingDay> {
    const month = await this.month(market, date.slice(0, 7));
    if (month === undefined) {
      const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
      return { market, date, kind: weekday === 0 || weekday === 6 ? 'closed' : 'full', source: 'fallback' };
    }
    const kind: DayKind = month.halfTradingDays.includes(date) ? 'half' : month.tradingDays.includes(date) ? 'full' : 'closed';
    return { market, date, kind, source: 'service' };
  }

  /** The instant a half day closes: the end of the market's half-day session on that local date. */
  halfDayClose(market: Market, date: string): number {
    const sessions = halfDaySessions(market);
    const end = sessions[sessions.length - 1]!.end;
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    return fromLocal({ year, month, day, hour: Math.floor(end / 100), minute: end % 100, second: 0 }, timeZoneOf(market));
  }

  private async month(market: Market, month: string): Promise<CachedMonth | undefined> {
    const key = `${market}|${month}`;
    const cached = this.months.get(key);
    const now = this.clock.now();
    if (cached !== undefined && now - cached.fetchedAt < this.ttlMs) return cached;
    const failedAt = this.failedAt.get(key);
    if (this.options.source === undefined || (failedAt !== undefined && now - failedAt < this.retryMs)) return cached;
    let pending = this.inFlight.get(key);
    if (pending === undefined) {
      pending = this.fetch(market, month, cached).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async fetch(market: Market, month: string, stale: CachedMonth | undefined): Promise<CachedMonth | undefined> {
    const key = `${market}|${month}`;
    const [year, monthNumber] = month.split('-').map(Number) as [number, number];
    const lastDay = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
    try {
      const answer = await this.options.source!.tradingDays(market, `${month}-01`, `${month}-${String(lastDay).padStart(2, '0')}`);
      const fetched: CachedMonth = {
        market,
        month,
        fetchedAt: this.clock.now(),
        tradingDays: answer.tradingDays.map(normaliseDate),
        halfTradingDays: answer.halfTradingDays.map(normaliseDate),
      };
      this.months.set(key, fetched);
      this.failedAt.delete(key);
      this.options.store?.save([...this.months.values()]);
      return fetched;
    } catch (error) {
      this.failedAt.set(key, this.clock.now());
      const fallback = stale === undefined ? 'weekdays (Mon-Fri) as trading days' : 'the expired cached list';
      this.logger.warn({ market, month, error: (error as Error).message }, `trading days unavailable from the service; using ${fallback}`);
      return stale;
    }
  }
}

function normaliseDate(text: string): string {
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  return compact === null ? text : `${compact[1]}-${compact[2]}-${compact[3]}`;
}
