import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { zoneOffsetAt } from '../../../src/domain/time-zone.js';
import { ZoneOffsets } from '../../../src/sim/venue/zone-offsets.js';

// Zones with daylight saving north and south, rules that changed (US 2007, Brazil 2019), and none at all.
const ZONES = ['America/New_York', 'Europe/London', 'Australia/Sydney', 'America/Sao_Paulo', 'Asia/Hong_Kong'] as const;

// Minutes of the months where daylight saving starts or ends, in years a backtest may stamp its bars with
// (the benchmark repeats history 400 years on), visited in random order so that years are found both by
// search and from a neighbouring year.
const instants = fc
  .tuple(
    fc.constantFrom(1995, 2006, 2007, 2008, 2018, 2019, 2020, 2024, 2025, 2406, 2407, 2424, 2807),
    fc.constantFrom(2, 3, 9, 10),
    fc.integer({ min: 0, max: 31 * 1440 - 1 }),
  )
  .map(([year, month, minute]) => Date.UTC(year, month, 1) + minute * 60_000);

describe('zone offsets', () => {
  it('give the offset Intl gives at every minute around daylight-saving changes', () => {
    for (const zone of ZONES) {
      const offsets = ZoneOffsets.of(zone);
      fc.assert(
        fc.property(instants, (instant) => {
          expect(offsets.offsetAt(instant)).toBe(zoneOffsetAt(instant, zone));
        }),
        { numRuns: 400 },
      );
    }
  });
});
