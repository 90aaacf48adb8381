// A hand-written TradingDaysSource: weekdays minus listed holidays, with listed half days; records its calls
// and can be switched to fail, like a service that is down.
import type { Market } from '../../../src/domain/symbol.js';
import type { TradingDays, TradingDaysSource } from '../../../src/schedule/calendar.js';

export class StubTradingDays implements TradingDaysSource {
  readonly calls: { market: Market; from: string; to: string }[] = [];
  failing = false;

  constructor(
    private readonly holidays: readonly string[] = [],
    private readonly halfDays: readonly string[] = [],
  ) {}

  async tradingDays(market: Market, from: string, to: string): Promise<TradingDays> {
    this.calls.push({ market, from, to });
    if (this.failing) throw new Error('socket closed');
    const tradingDays: string[] = [];
    const halfTradingDays: string[] = [];
    for (let time = Date.parse(`${from}T00:00:00Z`); time <= Date.parse(`${to}T00:00:00Z`); time += 86_400_000) {
      const date = new Date(time).toISOString().slice(0, 10);
      const weekday = new Date(time).getUTCDay();
      if (weekday === 0 || weekday === 6 || this.holidays.includes(date)) continue;
      // The service writes YYYYMMDD; half days are listed only as half days.
      (this.halfDays.includes(date) ? halfTradingDays : tradingDays).push(date.replaceAll('-', ''));
    }
    return { tradingDays, halfTradingDays };
  }
}
