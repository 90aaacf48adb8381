import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSecurities, readSecurities, writeSecurities } from '../../../src/feeds/history/securities-file.js';

describe('the securities file', () => {
  it('reads lot size, tick, currency, name and fractional shares per symbol, blanks left to the market defaults', () => {
    const text =
      'symbol,name,currency,lot_size,tick,fractional_shares\n0005.HK,"HSBC Holdings, plc",HKD,400,,\nAAPL.US,Apple,,,0.01,true\n';
    expect(parseSecurities(text, 'securities.csv')).toEqual({
      '5.HK': { name: 'HSBC Holdings, plc', currency: 'HKD', lotSize: 400 },
      'AAPL.US': { name: 'Apple', tick: '0.01', fractionalShares: true },
    });
  });

  it('reports every bad field with its file and line', () => {
    const text = 'symbol,lot_size,tick,fractional_shares\n700.HK,150.5,,\n9988.HK,100,penny,true\n';
    expect(() => parseSecurities(text, 'data/securities.csv')).toThrow(
      [
        'bad securities file:',
        '  data/securities.csv:2: lot_size: "150.5" is not a positive whole number',
        '  data/securities.csv:3: tick: "penny" is neither a tick table (hk-spread-table, us-stock, cn-stock, sg-stock) nor a positive step',
        '  data/securities.csv:3: fractional_shares: fractional shares trade only in the US market',
      ].join('\n'),
    );
    expect(() => parseSecurities('ticker,lot\n', 's.csv')).toThrow(/s\.csv:1: the header has no "symbol" column/);
  });

  it('writes what it reads back, and a missing file is no securities', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'securities-'));
    try {
      const file = join(folder, 'securities.csv');
      expect(await readSecurities(file)).toEqual({});
      const securities = parseSecurities('symbol,name,lot_size\n700.HK,"Tencent ""A""",100\n1.HK,CKH,500\n', 'in');
      await writeSecurities(file, securities);
      expect(await readFile(file, 'utf8')).toBe(
        'symbol,name,currency,lot_size,tick,fractional_shares\n1.HK,CKH,,500,,\n700.HK,"Tencent ""A""",,100,,\n',
      );
      expect(await readSecurities(file)).toEqual(securities);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
