// Option chains and quotes, warrant issuers, quotes and the screener through the SDK and our client. The SDK
// 3.0.18 returns last_done in place of some screener fields (PROTOCOL.md §7.2): those are compared with the
// simulator's own figures instead, which is what our client reads.
import { NaiveDate } from 'longport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HK, localInstant, US } from '../../support/sim/candles.js';
import {
  SDK_SORT,
  SDK_WARRANT_BOUNDS,
  SDK_WARRANT_EXPIRY,
  SDK_WARRANT_STATUS,
  SDK_WARRANT_TYPE,
  sdkWarrantSort,
} from '../../support/sdk-enums.js';
import { WARRANT_SORT_KEYS } from '../../../src/openapi/socket/reference-enums.js';
import type { WarrantInfo } from '../../../src/openapi/socket/derivative-mapping.js';
import { dec, ms, sdkJson, startParity, type ParityHarness } from './parity-harness.js';
import { SDK_CALLS } from './sdk-calls.js';

type Row = Record<string, unknown>;
let h: ParityHarness;

beforeAll(async () => {
  h = await startParity();
  h.stepUntil((tick) => tick.symbol === US && tick.time >= localInstant(US, '2024-01-03', 9, 40));
});

afterAll(async () => {
  expect(SDK_CALLS.derivatives.filter((call) => !h.called.has(call))).toEqual([]);
  await h.close();
});

const quoteFields = (row: Row) => [
  row['symbol'],
  ...['lastDone', 'prevClose', 'open', 'high', 'low', 'turnover'].map((key) => dec(row[key])),
  row['volume'],
  ms(row['timestamp']),
];

describe('the SDK and our client read the same derivatives', () => {
  it('option chain dates, strikes and option quotes', async () => {
    const sdkDates = sdkJson<string[]>(await h.sdkQuote.optionChainExpiryDateList(US));
    const ourDates = await h.quotes.optionChainDates(US);
    expect(ourDates).toEqual(sdkDates);
    expect(ourDates).toEqual(['2024-01-19', '2024-02-16', '2024-03-15', '2024-04-19', '2024-05-17', '2024-06-21']);
    const sdkStrikes = sdkJson<Row[]>(await h.sdkQuote.optionChainInfoByDate(US, new NaiveDate(2024, 2, 16)));
    const ourStrikes = await h.quotes.optionChainStrikes(US, '2024-02-16');
    expect(ourStrikes.map((row) => [dec(row.price), row.callSymbol, row.putSymbol, row.standard])).toEqual(
      sdkStrikes.map((row) => [dec(row['price']), row['callSymbol'], row['putSymbol'], row['standard']]),
    );
    expect(ourStrikes).toHaveLength(21);
    const symbols = [ourStrikes[8]!.callSymbol, ourStrikes[12]!.putSymbol];
    const sdkQuotes = sdkJson<Row[]>(await h.sdkQuote.optionQuote(symbols));
    const ourQuotes = await h.quotes.optionQuote(symbols);
    const extend = (row: Row) => [
      ...['impliedVolatility', 'strikePrice', 'contractMultiplier', 'contractSize', 'historicalVolatility'].map((key) => dec(row[key])),
      row['openInterest'],
      row['expiryDate'],
      row['contractType'],
      row['direction'],
      row['underlyingSymbol'],
    ];
    expect(ourQuotes.map((row) => [...quoteFields(row as unknown as Row), ...extend(row as unknown as Row)])).toEqual(
      sdkQuotes.map((row) => [...quoteFields(row), ...extend(row)]),
    );
    expect(ourQuotes.map((row) => [row.direction, row.underlyingSymbol, row.expiryDate])).toEqual([
      ['Call', US, '2024-02-16'],
      ['Put', US, '2024-02-16'],
    ]);
  });

  it('warrant issuers and quotes', async () => {
    const sdkIssuers = sdkJson<Row[]>(await h.sdkQuote.warrantIssuers());
    const ourIssuers = await h.quotes.warrantIssuers();
    expect(ourIssuers).toEqual(sdkIssuers);
    expect(ourIssuers).toHaveLength(6);
    const symbols = ['20000.HK', '20002.HK', '60004.HK', '60006.HK', '47008.HK'];
    const sdkQuotes = sdkJson<Row[]>(await h.sdkQuote.warrantQuote(symbols));
    const ourQuotes = await h.quotes.warrantQuote(symbols);
    const extend = (row: Row) => [
      ...[
        'impliedVolatility',
        'outstandingRatio',
        'conversionRatio',
        'strikePrice',
        'upperStrikePrice',
        'lowerStrikePrice',
        'callPrice',
      ].map((key) => dec(row[key])),
      row['expiryDate'],
      row['lastTradeDate'],
      row['outstandingQuantity'],
      row['category'],
      row['underlyingSymbol'],
    ];
    expect(ourQuotes.map((row) => [...quoteFields(row as unknown as Row), ...extend(row as unknown as Row)])).toEqual(
      sdkQuotes.map((row) => [...quoteFields(row), ...extend(row)]),
    );
    expect(ourQuotes.map((row) => row.category)).toEqual(['Call', 'Put', 'Bull', 'Bear', 'Inline']);
  });

  it('the warrant screener: filters, sort orders and every field', async () => {
    const byType = (warrants: readonly WarrantInfo[]) => warrants.map((row) => [row.symbol, row.warrantType]);
    const sdkAll = sdkJson<Row[]>(await h.sdkQuote.warrantList(HK, sdkWarrantSort(0), SDK_SORT.Descending));
    const ourAll = await h.quotes.warrantList(HK, { sortBy: 'lastDone', order: 'desc' });
    expect(byType(ourAll.warrants)).toEqual(sdkAll.map((row) => [row['symbol'], row['warrantType']]));
    expect([ourAll.totalCount, ourAll.warrants.length]).toEqual([10, 10]);
    const prices = ourAll.warrants.map((row) => row.lastDone.toNumber());
    expect(prices).toEqual([...prices].sort((a, b) => b - a));

    // Fields the SDK reads right for every type; the rest it reads only for some types (see the file header).
    const common = (row: Row) => [
      row['symbol'],
      row['name'],
      ...['lastDone', 'changeRate', 'changeValue', 'turnover', 'outstandingRatio', 'premium', 'leverageRatio'].map((key) => dec(row[key])),
      row['volume'],
      row['expiryDate'],
      row['outstandingQty'] ?? row['outstandingQuantity'],
      row['status'],
    ];
    const status = { normal: 'Normal', suspended: 'Suspend', prepareList: 'PrepareList', Unknown: 'Unknown' } as const;
    expect(ourAll.warrants.map((row) => common({ ...(row as unknown as Row), status: status[row.status] }))).toEqual(sdkAll.map(common));
    const sdkBySymbol = new Map(sdkAll.map((row) => [row['symbol'], row]));
    for (const ours of ourAll.warrants) {
      const sdk = sdkBySymbol.get(ours.symbol)!;
      if (ours.warrantType === 'Inline')
        expect([dec(ours.upperStrikePrice), dec(ours.lowerStrikePrice)]).toEqual([
          dec(sdk['upperStrikePrice']),
          dec(sdk['lowerStrikePrice']),
        ]);
      if (ours.warrantType === 'Bull' || ours.warrantType === 'Bear')
        expect([dec(ours.callPrice), dec(ours.toCallPrice)]).toEqual([dec(sdk['callPrice']), dec(sdk['toCallPrice'])]);
    }
    const call = ourAll.warrants.find((row) => row.symbol === '20000.HK')!;
    expect([call.strikePrice?.toFixed(), call.conversionRatio?.toFixed(), call.upperStrikePrice, call.callPrice]).toEqual([
      '315',
      '10',
      undefined,
      undefined,
    ]);
    expect([call.delta?.gt(0), call.impliedVolatility?.gt(0), call.effectiveLeverage?.gt(0), call.balancePoint?.gt(315)]).toEqual([
      true,
      true,
      true,
      true,
    ]);

    const filtered = async (...filters: Parameters<ParityHarness['sdkQuote']['warrantList']>) =>
      sdkJson<Row[]>(await h.sdkQuote.warrantList(...filters)).map((row) => row['symbol']);
    const sdkBulls = await filtered(
      HK,
      sdkWarrantSort(9),
      SDK_SORT.Ascending,
      [SDK_WARRANT_TYPE.Bull, SDK_WARRANT_TYPE.Bear],
      null,
      null,
      null,
      [SDK_WARRANT_STATUS.Normal],
    );
    const ourBulls = await h.quotes.warrantList(HK, {
      sortBy: WARRANT_SORT_KEYS[9]!,
      order: 'asc',
      types: ['Bull', 'Bear'],
      statuses: ['normal'],
    });
    expect(ourBulls.warrants.map((row) => row.symbol)).toEqual(sdkBulls);
    expect(ourBulls.warrants.map((row) => row.warrantType).sort()).toEqual(['Bear', 'Bear', 'Bull', 'Bull']);
    const sdkSoon = await filtered(
      HK,
      sdkWarrantSort(5),
      SDK_SORT.Ascending,
      null,
      [1, 3],
      [SDK_WARRANT_EXPIRY.LT_3, SDK_WARRANT_EXPIRY.Between_3_6],
      null,
      null,
    );
    const ourSoon = await h.quotes.warrantList(HK, { sortBy: 'expiryDate', order: 'asc', issuers: [1, 3], expiry: ['lt3', '3to6'] });
    expect(ourSoon.warrants.map((row) => row.symbol)).toEqual(sdkSoon);
    const sdkInside = await filtered(
      HK,
      sdkWarrantSort(0),
      SDK_SORT.Ascending,
      [SDK_WARRANT_TYPE.Inline],
      null,
      null,
      [SDK_WARRANT_BOUNDS.In],
      null,
    );
    const ourInside = await h.quotes.warrantList(HK, { sortBy: 'lastDone', order: 'asc', types: ['Inline'], bounds: ['in'] });
    expect(ourInside.warrants.map((row) => row.symbol)).toEqual(sdkInside);
    expect(ourInside.warrants).toHaveLength(2);
    // Every sort key in both orders: the SDK's WarrantSortBy value at each position is our key's wire value.
    for (const [position, sortBy] of WARRANT_SORT_KEYS.entries()) {
      for (const order of ['asc', 'desc'] as const) {
        const sdkSorted = await filtered(HK, sdkWarrantSort(position), order === 'asc' ? SDK_SORT.Ascending : SDK_SORT.Descending);
        const ourSorted = await h.quotes.warrantList(HK, { sortBy, order });
        expect([sortBy, order, ourSorted.warrants.map((row) => row.symbol)]).toEqual([sortBy, order, sdkSorted]);
      }
    }
    const bySymbol = (await h.quotes.warrantList(HK, { sortBy: 'strikePrice', order: 'asc' })).warrants;
    const strikes = bySymbol.filter((row) => row.strikePrice !== undefined).map((row) => row.strikePrice!.toNumber());
    expect(strikes).toEqual([...strikes].sort((a, b) => a - b));
    expect(bySymbol.slice(strikes.length).map((row) => row.warrantType)).toEqual(['Inline', 'Inline']);
    const page = await h.quotes.warrantList(HK, { sortBy: 'lastDone', order: 'desc', offset: 2, count: 3 });
    expect([page.totalCount, page.warrants.map((row) => row.symbol)]).toEqual([10, ourAll.warrants.slice(2, 5).map((row) => row.symbol)]);
  });
});
