import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src/domain/errors.js';
import { parseVenueSettings } from '../../../src/sim/venue/index.js';

describe('venue settings', () => {
  it('defaults to a HKD 1,000,000 cash account filling at the next open without fees or faults', () => {
    const settings = parseVenueSettings({});
    expect(settings.cash.HKD!.toFixed()).toBe('1000000');
    expect(settings.marginRatios.default.im.toFixed()).toBe('1');
    expect(settings).toMatchObject({
      fees: 'none',
      fillModel: 'next-open',
      slippageBps: 0,
      volumeParticipation: 1,
      intrabarPath: 'nearest-first',
      sessionCheck: false,
      shortSelling: false,
    });
    expect(settings.faults.orderRejectRate).toBe(0);
  });

  it('reports every problem at once, each with its path, and rejects unknown keys', () => {
    let error: unknown;
    try {
      parseVenueSettings({
        cash: { HKD: 'lots' },
        fillModel: 'vwap',
        marginRatios: { default: { im: 0.3, mm: 0.5, fm: 0.1 } },
        slipage: 5,
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidInputError);
    const message = (error as Error).message;
    expect(message).toContain('cash.HKD: "lots" is not a decimal number');
    expect(message).toContain('fillModel');
    expect(message).toContain('marginRatios.default: factors must satisfy im >= mm >= fm');
    expect(message).toContain('Unrecognized key: "slipage"');
  });

  it('normalises symbol keys', () => {
    const settings = parseVenueSettings({ stockNames: { '0700.hk': 'Tencent' } });
    expect(settings.stockNames).toEqual({ '700.HK': 'Tencent' });
  });
});
