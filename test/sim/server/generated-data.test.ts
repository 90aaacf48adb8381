// The data the simulator generates where the replay has none (option chains, warrants, broker queues, market
// temperature, fundamentals): deterministic for a seed, consistent with the replayed prices, and answering the
// screener's filters, sort orders and paging as documented.
import { afterEach, describe, expect, it } from 'vitest';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { normalCdf, optionGreeks, rangeDigital } from '../../../src/sim/server/market/black-scholes.js';
import { optionSymbol, parseOptionSymbol, strikeStep } from '../../../src/sim/server/market/option-chain.js';
import { temperatureOf } from '../../../src/sim/server/market/temperature.js';
import { HK, localInstant, US } from '../../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../../support/sim/harness.js';

let h: SimHarness;
afterEach(async () => h?.close());

async function at(options: Parameters<typeof startSimHarness>[0] = {}): Promise<SimHarness> {
  h = await startSimHarness(options);
  h.stepUntil((tick) => tick.symbol === US && tick.time >= localInstant(US, '2024-01-03', 9, 40));
  return h;
}

describe('option pricing', () => {
  it('keeps put-call parity and prices a range digital between 0 and its discount factor', () => {
    const input = { spot: 190, strike: 195, years: 0.25, volatility: 0.3, rate: 0.03 };
    const call = optionGreeks('call', input);
    const put = optionGreeks('put', input);
    expect(call.price - put.price).toBeCloseTo(190 - 195 * Math.exp(-0.03 * 0.25), 6);
    expect(call.delta - put.delta).toBeCloseTo(1, 6);
    expect([normalCdf(0), normalCdf(1.96)].map((value) => value.toFixed(4))).toEqual(['0.5000', '0.9750']);
    const digital = rangeDigital({ spot: 300, years: 0.5, volatility: 0.25, rate: 0.03 }, 270, 330);
    expect(digital).toBeGreaterThan(0.3);
    expect(digital).toBeLessThan(Math.exp(-0.015));
  });

  it('writes and reads option symbols, roots with C or P included', () => {
    const symbol = optionSymbol(parseSymbol('CPNG.US'), 20240216, 'call', 17.5);
    expect(symbol).toBe('CPNG240216C17500.US');
    expect(parseOptionSymbol(symbol, (text) => (text === 'CPNG.US' ? parseSymbol(text) : undefined))).toEqual({
      symbol,
      underlying: 'CPNG.US',
      expiry: 20240216,
      kind: 'call',
      strike: 17.5,
    });
    expect(parseOptionSymbol('700240130P300000.HK', (text) => (text === '700.HK' ? parseSymbol(text) : undefined))?.strike).toBe(300);
    expect(parseOptionSymbol('AAPL.US', () => undefined)).toBeUndefined();
    expect([strikeStep(8), strikeStep(190), strikeStep(300), strikeStep(2500)]).toEqual([0.5, 2.5, 5, 10]);
  });
});

describe('generated option chains', () => {
  it('lists third Fridays ahead and 21 strikes around the previous close, with quotes that follow the underlying', async () => {
    const quotes = await (await at()).quoteClient();
    expect((await quotes.optionChainDates(HK))[0]).toBe('2024-01-19');
    const strikes = await quotes.optionChainStrikes(US, '2024-03-15');
    const [underlying] = await quotes.quote([US]);
    const middle = strikes[10]!.price.toNumber();
    expect(Math.abs(middle - underlying!.prevClose.toNumber())).toBeLessThanOrEqual(1.25);
    expect(await quotes.optionChainStrikes(US, '2024-03-14')).toEqual([]);
    const [call, put] = await quotes.optionQuote([strikes[10]!.callSymbol, strikes[10]!.putSymbol]);
    const parityGap = call!.lastDone.minus(put!.lastDone).toNumber() - (underlying!.lastDone.toNumber() - middle);
    expect(Math.abs(parityGap)).toBeLessThan(1.5);
    const before = call!.lastDone;
    h.stepUntil((tick) => tick.symbol === US && tick.price > underlying!.lastDone.toNumber());
    expect((await quotes.optionQuote([call!.symbol]))[0]!.lastDone.gte(before)).toBe(true);
  });
});

describe('generated warrants and the screener', () => {
  it('screens by type, issuer, expiry band and bounds, sorts with absent keys last, and pages with the total', async () => {
    const quotes = await (await at()).quoteClient();
    const all = await quotes.warrantList(HK, { sortBy: 'lastDone', order: 'asc' });
    expect(all.warrants.map((row) => row.warrantType).sort()).toEqual([
      'Bear',
      'Bear',
      'Bull',
      'Bull',
      'Call',
      'Call',
      'Inline',
      'Inline',
      'Put',
      'Put',
    ]);
    const byDelta = await quotes.warrantList(HK, { sortBy: 'delta', order: 'desc' });
    expect(
      byDelta.warrants
        .slice(0, 4)
        .map((row) => row.warrantType)
        .sort(),
    ).toEqual(['Call', 'Call', 'Put', 'Put']);
    expect(byDelta.warrants.slice(4).every((row) => row.delta === undefined)).toBe(true);
    const issuers = await quotes.warrantList(HK, { sortBy: 'volume', order: 'desc', issuers: [1, 2] });
    expect(new Set(issuers.warrants.map((row) => row.name.split(' ')[1]!.slice(0, 3)))).toEqual(new Set(['SI1', 'SI2']));
    const soon = await quotes.warrantList(HK, { sortBy: 'expiryDate', order: 'asc', expiry: ['lt3'] });
    expect(soon.warrants.every((row) => row.expiryDate < '2024-04-03')).toBe(true);
    const outside = await quotes.warrantList(HK, { sortBy: 'lastDone', order: 'asc', types: ['Inline'], bounds: ['out'] });
    expect(outside.warrants).toEqual([]);
    const page = await quotes.warrantList(HK, { sortBy: 'lastDone', order: 'asc', offset: 8, count: 5 });
    expect([page.totalCount, page.warrants.map((row) => row.symbol)]).toEqual([10, all.warrants.slice(8).map((row) => row.symbol)]);
    expect((await quotes.warrantList(US, { sortBy: 'lastDone', order: 'asc' })).totalCount).toBe(0);
  });

  it('are the same for the same seed, and trade differently under another', async () => {
    const figures = async (seed: number) => {
      const quotes = await (await at({ seed })).quoteClient();
      const rows = (await quotes.warrantQuote(['20000.HK', '60006.HK'])).map((row) => [
        row.lastDone.toFixed(),
        row.volume,
        row.outstandingQuantity,
      ]);
      await h.close();
      return rows;
    };
    const [first, again, other] = [await figures(7), await figures(7), await figures(8)];
    expect(again).toEqual(first);
    expect(other.map((row) => row[0])).toEqual(first.map((row) => row[0]));
    expect(other.map((row) => row[1])).not.toEqual(first.map((row) => row[1]));
  });
});

describe('generated broker queues, fundamentals and temperature', () => {
  it('queues brokers of participants at HK depth levels only, the same for the same tick', async () => {
    const quotes = await (await at()).quoteClient();
    const [participants, first, again, us] = [
      await quotes.participants(),
      await quotes.brokersSnapshot(HK),
      await quotes.brokersSnapshot(HK),
      await quotes.brokersSnapshot(US),
    ];
    const known = new Set(participants.flatMap((row) => row.brokerIds));
    expect(first.askBrokers.flatMap((row) => row.brokerIds).every((id) => known.has(id))).toBe(true);
    expect(again).toEqual(first);
    expect([us.askBrokers, us.bidBrokers]).toEqual([[], []]);
  });

  it('gives static info fundamentals that the calc indexes agree with', async () => {
    const quotes = await (await at()).quoteClient();
    const [info] = await quotes.staticInfo([HK]);
    const [row] = await quotes.calcIndexes([HK, 'NOPE.HK'], ['lastDone', 'peTtmRatio', 'pbRatio']);
    expect(row!.peTtmRatio!.toNumber()).toBeCloseTo(row!.lastDone!.toNumber() / info!.epsTtm.toNumber(), 3);
    expect(row!.pbRatio!.toNumber()).toBeCloseTo(row!.lastDone!.toNumber() / info!.bps.toNumber(), 3);
    expect(Object.keys(row!).sort()).toEqual(['lastDone', 'pbRatio', 'peTtmRatio', 'symbol']);
  });

  it('reads each market day the same temperature, from 0 to 100, named by its level', () => {
    const reading = temperatureOf('HK', 20240102, 1);
    expect(temperatureOf('HK', 20240102, 1)).toEqual(reading);
    expect(temperatureOf('US', 20240102, 1)).not.toEqual(reading);
    for (const value of [reading.temperature, reading.valuation, reading.sentiment]) expect(value).toBeGreaterThanOrEqual(0);
    expect(reading.temperature).toBeLessThanOrEqual(100);
    expect(['Cold', 'Cool', 'Neutral', 'Warm', 'Hot']).toContain(reading.description);
  });
});
