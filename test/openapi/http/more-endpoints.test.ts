// The endpoints the SDK added to the spec (PROTOCOL.md §7.1), over a real socket: requests exactly as the SDK sends
// them (paths, query order, body keys and types), answers read as the SDK reads them.
import { afterEach, describe, expect, it } from 'vitest';
import { BadResponseError } from '../../../src/openapi/http/errors.js';
import { ok } from '../../support/http/fake-openapi-server.js';
import { startHarness, type Harness } from '../../support/http/client-harness.js';

let harness: Harness;
afterEach(async () => harness.close());

const seconds = (iso: string): string => String(Date.parse(iso) / 1000);

describe('watchlist groups', () => {
  it('creates a group with its securities and reads the id the service returns as text', async () => {
    harness = await startHarness({ 'POST /v1/watchlist/groups': () => ok({ id: '123' }) });
    expect(await harness.run(harness.client.createWatchlistGroup({ name: 'tech', securities: ['AAPL.US', '700.HK'] }))).toEqual({
      id: '123',
    });
    expect(harness.server.requests[0]!.body).toBe('{"name":"tech","securities":["AAPL.US","700.HK"]}');
  });

  it('leaves securities out of a create without them', async () => {
    harness = await startHarness({ 'POST /v1/watchlist/groups': () => ok({ id: 7 }) });
    await harness.run(harness.client.createWatchlistGroup({ name: 'empty' }));
    expect(harness.server.requests[0]!.body).toBe('{"name":"empty"}');
  });

  it('updates with the id as a number, the mode only with securities, and only what changes', async () => {
    harness = await startHarness({ 'PUT /v1/watchlist/groups': () => ok({}) });
    await harness.run(harness.client.updateWatchlistGroup({ id: '123', securities: ['TSLA.US'], mode: 'remove' }));
    await harness.run(harness.client.updateWatchlistGroup({ id: 123, name: 'renamed' }));
    await harness.run(harness.client.updateWatchlistGroup({ id: 5, securities: ['AAPL.US'] }));
    expect(harness.server.requests.map((request) => request.body)).toEqual([
      '{"id":123,"securities":["TSLA.US"],"mode":"remove"}',
      '{"id":123,"name":"renamed"}',
      '{"id":5,"securities":["AAPL.US"],"mode":"replace"}',
    ]);
  });

  it('deletes with the purge flag in the query', async () => {
    harness = await startHarness({ 'DELETE /v1/watchlist/groups': () => ok({}) });
    await harness.run(harness.client.deleteWatchlistGroup('123', true));
    await harness.run(harness.client.deleteWatchlistGroup(9));
    expect(harness.server.requests.map((request) => request.query)).toEqual(['id=123&purge=true', 'id=9&purge=false']);
  });
});

describe('market temperature', () => {
  it('reads the current reading, its time from updated_at (or timestamp)', async () => {
    harness = await startHarness({
      'GET /v1/quote/market_temperature': (request) =>
        ok(
          request.query === 'market=HK'
            ? { temperature: 51, description: 'Neutral', valuation: 40, sentiment: 62, updated_at: '1700000000' }
            : { temperature: 20, valuation: 30, sentiment: 10, timestamp: '1700000060' },
        ),
    });
    expect(await harness.run(harness.client.marketTemperature('HK'))).toEqual({
      temperature: 51,
      description: 'Neutral',
      valuation: 40,
      sentiment: 62,
      updatedAt: 1_700_000_000_000,
    });
    expect((await harness.run(harness.client.marketTemperature('US'))).updatedAt).toBe(1_700_000_060_000);
  });

  it('asks for a history with compact dates and reads an unknown granularity as unknown', async () => {
    harness = await startHarness({
      'GET /v1/quote/history_market_temperature': () =>
        ok({ type: 'day', list: [{ timestamp: '1704153600', temperature: 31, valuation: 88, sentiment: 41 }] }),
    });
    const history = await harness.run(harness.client.historyMarketTemperature('US', '2024-01-01', '2025-01-01'));
    expect(harness.server.requests[0]!.query).toBe('market=US&start_date=20240101&end_date=20250101');
    expect(history).toEqual({
      granularity: 'unknown',
      records: [{ time: 1_704_153_600_000, temperature: 31, valuation: 88, sentiment: 41 }],
    });
  });
});

describe('executions', () => {
  const trade = { order_id: '1', trade_id: '1-1', symbol: '700.HK', trade_done_at: '1704159000', quantity: '100', price: '300.2' };

  it("asks today's by symbol and order id, and reads fills with exact decimals", async () => {
    harness = await startHarness({ 'GET /v1/trade/execution/today': () => ok({ trades: [trade] }) });
    const [fill] = await harness.run(harness.client.todayExecutions({ symbol: '700.HK', orderId: '1' }));
    expect(harness.server.requests[0]!.query).toBe('symbol=700.HK&order_id=1');
    expect([fill!.tradeDoneAt, fill!.quantity.toFixed(), fill!.price.toFixed()]).toEqual([1_704_159_000_000, '100', '300.2']);
  });

  it('asks history by symbol and a range in unix seconds, ignoring has_more as the SDK does', async () => {
    harness = await startHarness({ 'GET /v1/trade/execution/history': () => ok({ has_more: true, trades: [trade, trade] }) });
    const fills = await harness.run(
      harness.client.historyExecutions({
        symbol: '700.HK',
        startAt: Date.parse('2024-01-01T00:00:00Z'),
        endAt: Date.parse('2024-02-01T00:00:00Z'),
      }),
    );
    expect(harness.server.requests[0]!.query).toBe(
      `symbol=700.HK&start_at=${seconds('2024-01-01T00:00:00Z')}&end_at=${seconds('2024-02-01T00:00:00Z')}`,
    );
    expect(fills).toHaveLength(2);
  });
});

describe('cash flow and fund positions', () => {
  it('sends the query keys in the SDK order and reads direction, business type and an empty symbol', async () => {
    harness = await startHarness({
      'GET /v1/asset/cashflow': () =>
        ok({
          list: [
            {
              transaction_flow_name: 'Buy 700.HK',
              direction: 1,
              business_type: 1,
              balance: '30020',
              currency: 'HKD',
              business_time: '1704159000',
              symbol: '700.HK',
              description: '',
            },
            {
              transaction_flow_name: 'Deposit',
              direction: 2,
              business_type: 9,
              balance: '10',
              currency: 'HKD',
              business_time: '1704159001',
              symbol: null,
              description: 'in',
            },
          ],
        }),
    });
    const flows = await harness.run(
      harness.client.cashFlow({
        startAt: 1_704_067_200_000,
        endAt: 1_706_745_600_000,
        businessType: 'stock',
        symbol: '700.HK',
        page: 2,
        size: 10,
      }),
    );
    expect(harness.server.requests[0]!.query).toBe(
      'start_time=1704067200&end_time=1706745600&business_type=2&symbol=700.HK&page=2&size=10',
    );
    expect(flows.map((row) => [row.name, row.direction, row.businessType, row.balance.toFixed(), row.symbol, row.businessTime])).toEqual([
      ['Buy 700.HK', 'out', 'cash', '30020', '700.HK', 1_704_159_000_000],
      ['Deposit', 'in', 'unknown', '10', undefined, 1_704_159_001_000],
    ]);
  });

  it('names a cash-flow row without a business type, as the SDK refuses it', async () => {
    harness = await startHarness({
      'GET /v1/asset/cashflow': () =>
        ok({ list: [{ transaction_flow_name: 'x', direction: 1, balance: '1', currency: 'HKD', business_time: '1' }] }),
    });
    await expect(harness.run(harness.client.cashFlow({ startAt: 0, endAt: 1000 }))).rejects.toThrow(BadResponseError);
  });

  it('reads fund positions per channel, "" figures as zero and a missing fund list as none', async () => {
    harness = await startHarness({
      'GET /v1/asset/fund': () =>
        ok({
          list: [
            {
              account_channel: 'lb',
              fund_info: [
                {
                  symbol: 'HK0000447943',
                  symbol_name: 'Fund',
                  currency: 'USD',
                  holding_units: '5.5',
                  current_net_asset_value: '',
                  cost_net_asset_value: '10.1',
                  net_asset_value_day: '1704067200',
                },
              ],
            },
            { account_channel: 'other' },
          ],
        }),
    });
    const funds = await harness.run(harness.client.fundPositions(['HK0000447943', 'US0000000000']));
    expect(harness.server.requests[0]!.query).toBe('symbol=HK0000447943&symbol=US0000000000');
    expect(
      funds.map((row) => [
        row.accountChannel,
        row.symbol,
        row.holdingUnits.toFixed(),
        row.currentNetAssetValue.toFixed(),
        row.netAssetValueDay,
      ]),
    ).toEqual([['lb', 'HK0000447943', '5.5', '0', 1_704_067_200_000]]);
  });
});

describe('raw requests', () => {
  it('signs and sends any path with its query string as given, a body and extra headers, and returns the data', async () => {
    harness = await startHarness({ 'POST /v1/anything': () => ok({ echoed: true }) });
    const data = await harness.run(
      harness.client.request({ method: 'POST', path: '/v1/anything?b=2&a=1', headers: { 'x-extra': 'yes' }, body: { z: 1, a: [2] } }),
    );
    const request = harness.server.requests[0]!;
    expect([data, request.query, request.body, request.headers['x-extra'], request.signatureValid]).toEqual([
      { echoed: true },
      'b=2&a=1',
      '{"z":1,"a":[2]}',
      'yes',
      true,
    ]);
  });
});
