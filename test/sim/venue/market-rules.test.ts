import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { Venue, type VenueSettingsInput } from '../../../src/sim/venue/index.js';
import { dayBar, HK, order, p, q, US } from './fixtures.js';

const CN = parseSymbol('600519.CN');

/** A venue with the markets' own rules (the Harness relaxes them for 700.HK). */
function marketVenue(settings: VenueSettingsInput = {}): Venue {
  const clock = new VirtualClock(Date.UTC(2023, 11, 31));
  const venue = new Venue({ clock, settings: { cash: { HKD: '10000000', USD: '1000000', CNY: '1000000' }, ...settings } });
  for (const bar of [
    dayBar(HK, '2024-01-02', 350, 352, 348, 350.2),
    dayBar(US, '2024-01-02', 190, 191, 189, 190.5),
    dayBar(CN, '2024-01-02', 1700, 1710, 1690, 1705),
  ]) {
    clock.advanceTo(bar.time);
    venue.onBar(bar);
  }
  return venue;
}

describe('market order rules in the venue', () => {
  it('rejects a Hong Kong order that is not a whole number of board lots', () => {
    const placed = marketVenue().submit(order(HK, 'Buy', 150));
    expect(placed.status).toBe('RejectedStatus');
    expect(placed.message).toBe(
      'lot size: quantity 150 of 700.HK is not a whole number of board lots of 100 (odd lots trade only as order type ODD)',
    );
    expect(marketVenue().submit(order(HK, 'Buy', 200)).status).toBe('NewStatus');
  });

  it('takes a Hong Kong odd lot only as an ODD order of less than one lot', () => {
    const venue = marketVenue();
    expect(venue.submit(order(HK, 'Buy', 50, { orderType: 'ODD', price: p('350.2') })).status).toBe('NewStatus');
    const whole = venue.submit(order(HK, 'Buy', 100, { orderType: 'ODD', price: p('350.2') }));
    expect(whole.message).toMatch(/^odd lot: an ODD order takes fewer shares than one board lot of 100/);
    expect(venue.submit(order(US, 'Buy', 5, { orderType: 'ODD', price: p('190') })).message).toMatch(
      /^odd lot: order type ODD is for Hong Kong/,
    );
  });

  it('uses the lot size the settings give a symbol', () => {
    const venue = marketVenue({ instruments: { '700.HK': { lotSize: 500 } } });
    expect(venue.submit(order(HK, 'Buy', 200)).message).toMatch(/board lots of 500/);
    expect(venue.submit(order(HK, 'Buy', 1000)).status).toBe('NewStatus');
    expect(venue.instrument(HK).lotSize).toBe(500);
  });

  it('rejects prices off the tick ladder, naming the nearest prices on it', () => {
    const venue = marketVenue();
    const placed = venue.submit(order(HK, 'Buy', 100, { price: p('350.3') }));
    expect(placed.status).toBe('RejectedStatus');
    expect(placed.message).toBe('tick size: price 350.3 of 700.HK is not on the price ladder (hk-spread-table); nearest 350.2 or 350.4');
    expect(venue.submit(order(HK, 'Buy', 100, { price: p('350.4') })).status).toBe('NewStatus');
    expect(venue.submit(order(US, 'Buy', 1, { price: p('190.555') })).message).toMatch(/^tick size: price 190.555/);
    const stop = venue.submit(order(US, 'Sell', 1, { orderType: 'MIT', triggerPrice: p('185.001') }));
    expect(stop.message).toMatch(/^tick size: trigger price 185.001/);
  });

  it('refuses fractional shares unless the instrument allows them', () => {
    expect(marketVenue().submit(order(US, 'Buy', 1.5)).message).toBe(
      'fractional shares: AAPL.US trades whole shares only, got quantity 1.5',
    );
    const fractional = marketVenue({ instruments: { 'AAPL.US': { fractionalShares: true } } });
    expect(fractional.submit(order(US, 'Buy', 1.5)).status).toBe('NewStatus');
    expect(() => marketVenue({ instruments: { '700.HK': { fractionalShares: true } } })).toThrow(
      /fractional shares trade only in the US market/,
    );
  });

  it('lets China Connect sell odd shares but buy only whole lots', () => {
    const venue = marketVenue({ shortSelling: true });
    expect(venue.submit(order(CN, 'Buy', 150)).message).toMatch(/^lot size: quantity 150 of 600519.CN/);
    expect(venue.submit(order(CN, 'Sell', 150)).status).toBe('NewStatus');
  });

  it('applies the same rules to a replacement', () => {
    const venue = marketVenue();
    const placed = venue.submit(order(HK, 'Buy', 100, { price: p('340') }));
    expect(() => venue.replace(placed.orderId, { quantity: q(250) })).toThrow(/lot size: quantity 250/);
    expect(() => venue.replace(placed.orderId, { quantity: q(200), price: p('340.1') })).toThrow(/tick size: price 340.1/);
    expect(venue.replace(placed.orderId, { quantity: q(200), price: p('340.2') }).quantity.toFixed()).toBe('200');
  });
});
