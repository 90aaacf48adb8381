// The kill switches' memory: the peak of net assets over the run and the first figure of each local day.
// Pure updates; once a switch trips it stays tripped (the daily one until the local day changes).
import { Fixed, pad, toLocal, type FixedPoint, type Money } from '../domain/index.js';
import type { RiskLimits } from './config.js';

export interface Trip {
  /** The loss in money (daily) or as a fraction of the peak (drawdown). */
  readonly loss: FixedPoint;
  readonly limit: Fixed;
  /** The reference figure (day start or peak) and the figure that tripped the switch. */
  readonly reference: Money;
  readonly netAssets: Money;
}

/** Places of a drawdown fraction as a trip reports it. */
const DRAWDOWN_PLACES = 10;

export interface EquityWatch {
  readonly peak: Money | undefined;
  readonly day: string | undefined;
  readonly dayStart: Money | undefined;
  /** Set when the daily-loss switch tripped during `day`. */
  readonly dailyTrip: Trip | undefined;
  /** Set for the rest of the run once the drawdown switch tripped. */
  readonly drawdownTrip: Trip | undefined;
}

export const FRESH_EQUITY_WATCH: EquityWatch = {
  peak: undefined,
  day: undefined,
  dayStart: undefined,
  dailyTrip: undefined,
  drawdownTrip: undefined,
};

/**
 * Records one observation of net assets at `time` (market-local day taken in `timeZone`). Without a daily
 * loss limit no day is kept: nothing reads it.
 */
export function observeEquity(watch: EquityWatch, netAssets: Money, time: number, timeZone: string, limits: RiskLimits): EquityWatch {
  const daily = limits.dailyLossLimit !== undefined;
  const day = daily ? cachedLocalDate(time, timeZone) : undefined;
  const newDay = day !== watch.day;
  const dayStart = !daily ? undefined : newDay || watch.dayStart === undefined ? netAssets : watch.dayStart;
  const peak = watch.peak === undefined || netAssets.gt(watch.peak) ? netAssets : watch.peak;
  let dailyTrip = newDay ? undefined : watch.dailyTrip;
  if (dailyTrip === undefined && dayStart !== undefined && limits.dailyLossLimit !== undefined) {
    const loss = dayStart.minus(netAssets);
    if (loss.gte(limits.dailyLossLimit)) dailyTrip = { loss, limit: limits.dailyLossLimit, reference: dayStart, netAssets };
  }
  let drawdownTrip = watch.drawdownTrip;
  const maxDrawdown = limits.maxDrawdown;
  if (drawdownTrip === undefined && maxDrawdown !== undefined && peak.isPositive() && netAssets.lt(peak)) {
    // (peak − net assets) / peak ≥ limit, without dividing: peak − net assets ≥ limit × peak.
    const fall = peak.minus(netAssets);
    if (fall.gte(peak.times(maxDrawdown))) {
      const drawdown = Fixed.fromRaw(fall.raw, fall.precision).dividedBy(peak, DRAWDOWN_PLACES).normalized();
      drawdownTrip = { loss: drawdown, limit: maxDrawdown, reference: peak, netAssets };
    }
  }
  return { peak, day, dayStart, dailyTrip, drawdownTrip };
}

interface DayWindow {
  readonly day: string;
  /** Instants in [from, until) share the local date `day`. */
  readonly from: number;
  readonly until: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Larger than any zone's offset change in one step (daylight saving moves an hour). */
const MARGIN_MS = 2 * HOUR_MS;
const windows = new Map<string, DayWindow>();

/**
 * localDate without Intl for instants shortly after one already asked about: from an instant at local
 * time-of-day `tod` ≥ 2 h, the date cannot change for the next 22 h − `tod` whatever offset change of up to
 * 2 h happens in between (forward or back), so those instants reuse its date.
 */
function cachedLocalDate(time: number, zone: string): string {
  const window = windows.get(zone);
  if (window !== undefined && time >= window.from && time < window.until) return window.day;
  const local = toLocal(time, zone);
  const day = `${local.year}-${pad(local.month)}-${pad(local.day)}`;
  const timeOfDay = ((local.hour * 60 + local.minute) * 60 + local.second) * 1000 + (((time % 1000) + 1000) % 1000);
  if (timeOfDay >= MARGIN_MS) windows.set(zone, { day, from: time, until: time + DAY_MS - MARGIN_MS - timeOfDay });
  return day;
}
