// Watchlist groups through the SDK and our client: each creates, renames, adds to, removes from, replaces and
// deletes a group of its own, and both read the same list after every step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HK, US } from '../../support/sim/candles.js';
import { SDK_UPDATE_MODE } from '../../support/sdk-enums.js';
import { ms, sdkJson, startParity, type ParityHarness } from './parity-harness.js';
import { SDK_CALLS } from './sdk-calls.js';

type Row = Record<string, unknown>;
let h: ParityHarness;

beforeAll(async () => {
  h = await startParity();
  h.step();
});

afterAll(async () => {
  expect(SDK_CALLS.watchlist.filter((call) => !h.called.has(call))).toEqual([]);
  await h.close();
});

/** Both clients' view of the groups, as [id, name, [symbol, market, name, watched at]…]. */
async function bothViews(): Promise<[unknown, unknown]> {
  const sdk = sdkJson<Row[]>(await h.sdkQuote.watchlist()).map((group) => [
    String(group['id']),
    group['name'],
    (group['securities'] as Row[]).map((row) => [row['symbol'], row['market'], row['name'], ms(row['watchedAt'])]),
  ]);
  const ours = (await h.http.watchlist()).map((group) => [
    group.id,
    group.name,
    group.securities.map((row) => [row.symbol, row.market, row.name, row.watchedAt ?? 0]),
  ]);
  return [ours, sdk];
}

describe('the SDK and our client manage the same watchlist groups', () => {
  it('create, update in every mode and delete groups, reading the same list after each step', async () => {
    const sdkId = await h.sdkQuote.createWatchlistGroup({ name: 'sdk group', securities: [HK] });
    const ours = await h.http.createWatchlistGroup({ name: 'our group', securities: [US] });
    expect([sdkId, ours.id]).toEqual([2, '3']);
    let [mine, theirs] = await bothViews();
    expect(mine).toEqual(theirs);
    expect((mine as unknown[]).length).toBe(3);

    await h.sdkQuote.updateWatchlistGroup({ id: sdkId, name: 'renamed by sdk', securities: [US], mode: SDK_UPDATE_MODE.Add });
    await h.http.updateWatchlistGroup({ id: ours.id, name: 'renamed by us', securities: [HK], mode: 'add' });
    [mine, theirs] = await bothViews();
    expect(mine).toEqual(theirs);
    const groups = await h.http.watchlist();
    expect(groups.map((group) => [group.name, group.securities.map((row) => row.symbol)])).toEqual([
      ['all', [HK, US]],
      ['renamed by sdk', [HK, US]],
      ['renamed by us', [US, HK]],
    ]);

    await h.sdkQuote.updateWatchlistGroup({ id: sdkId, securities: [HK], mode: SDK_UPDATE_MODE.Remove });
    await h.http.updateWatchlistGroup({ id: ours.id, securities: [HK], mode: 'replace' });
    [mine, theirs] = await bothViews();
    expect(mine).toEqual(theirs);
    expect((await h.http.watchlist()).slice(1).map((group) => group.securities.map((row) => row.symbol))).toEqual([[US], [HK]]);

    await h.sdkQuote.deleteWatchlistGroup({ id: sdkId, purge: false });
    await h.http.deleteWatchlistGroup(ours.id, true);
    [mine, theirs] = await bothViews();
    expect(mine).toEqual(theirs);
    expect((await h.http.watchlist()).map((group) => [group.name, group.securities.map((row) => row.symbol)])).toEqual([['all', [US]]]);
  });
});
