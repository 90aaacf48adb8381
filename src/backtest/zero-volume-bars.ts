// Day bars of volume 0 among bars with volume: the stale rows some exports write for holidays (the previous
// close repeated). The venue reads a volume of 0 as a bar without volume data, so it fills whole orders there.
import type { CandleSeries } from '../feeds/history/candle-files.js';

export interface ZeroVolumeBars {
  readonly series: CandleSeries;
  readonly count: number;
  /** Epoch ms of the first of them. */
  readonly first: number;
}

/** The series that have both bars of volume 0 and bars with volume (a file without volumes is left alone). */
export function zeroVolumeBars(series: readonly CandleSeries[]): ZeroVolumeBars[] {
  const found: ZeroVolumeBars[] = [];
  for (const one of series) {
    const { volume, time, length } = one.columns;
    let count = 0;
    let traded = false;
    let first = Number.NaN;
    for (let index = 0; index < length; index += 1) {
      const value = volume[index]!;
      if (value > 0) traded = true;
      else if (value === 0) {
        if (count === 0) first = time[index]!;
        count += 1;
      }
    }
    if (count > 0 && traded) found.push({ series: one, count, first });
  }
  return found;
}
