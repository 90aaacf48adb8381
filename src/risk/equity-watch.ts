// The kill switches' memory: the peak of net assets over the run and the first figure of each local day.
// Pure updates; once a switch trips it stays tripped (the daily one until the local day changes).
import { localDate, type Decimal } from '../domain/index.js';
import type { RiskLimits } from './config.js';

export interface Trip {
  readonly loss: Decimal;
  readonly limit: Decimal;
  /** The reference figure (day start or peak) and the figure that tripped the switch. */
  readonly reference: Decimal;
  readonly netAssets: Decimal;
}

export interface EquityWatch {
  readonly peak: Decimal | undefined;
  readonly day: string | undefined;
  readonly dayStart: Decimal | undefined;
  /** Set when the daily-loss switch tripped during `day`. */
  readonly dailyTrip: Trip | undefined;
  /** Set for the rest of the run once the drawdown switch tripped. */
  readonly drawdownTrip: Trip | undefined;
}

export const FRESH_EQUITY_WATCH: EquityWatch = { peak: undefined, day: undefined, dayStart: undefined, dailyTrip: undefined, drawdownTrip: undefined };

/** Records one observation of net assets at `time` (market-local day taken in `timeZone`). */
export function observeEquity(watch: EquityWatch, netAssets: Decimal, time: number, timeZone: string, limits: RiskLimits): EquityWatch {
  const day = localDate(time, timeZone);
  const newDay = day !== watch.day;
  const dayStart = newDay || watch.dayStart === undefined ? netAssets : watch.dayStart;
  const peak = watch.peak === undefined || netAssets.gt(watch.peak) ? netAssets : watch.peak;
  let dailyTrip = newDay ? undefined : watch.dailyTrip;
  if (dailyTrip === undefined && limits.dailyLossLimit !== undefined) {
    const loss = dayStart.minus(netAssets);
    if (loss.gte(limits.dailyLossLimit)) dailyTrip = { loss, limit: limits.dailyLossLimit, reference: dayStart, netAssets };
  }
  let drawdownTrip = watch.drawdownTrip;
  if (drawdownTrip === undefined && limits.maxDrawdown !== undefined && peak.gt(0)) {
    const drawdown = peak.minus(netAssets).dividedBy(peak);
    if (drawdown.gte(limits.maxDrawdown)) drawdownTrip = { loss: drawdown, limit: limits.maxDrawdown, reference: peak, netAssets };
  }
  return { peak, day, dayStart, dailyTrip, drawdownTrip };
}
