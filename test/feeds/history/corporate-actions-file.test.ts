import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CorporateAction } from '../../../src/domain/corporate-action.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { candleFileActions, loadCorporateActions, parseActionsFile } from '../../../src/feeds/history/corporate-actions-file.js';

const AAPL = parseSymbol('AAPL.US');

describe('corporate actions from data files', () => {
  it('reads the non-zero Dividends and Stock Splits cells of a Yahoo-style candle CSV', () => {
    const csv = [
      'Date,Open,High,Low,Close,Adj Close,Volume,Dividends,Stock Splits',
      '2020-08-06,455,457,439,455.6,450,5,0,0',
      '2020-08-07,452,454,441,444.4,440,5,0.82,0',
      '2020-08-31,127.6,131,126,129,128,5,0,4',
    ].join('\n');
    expect(
      candleFileActions(csv, AAPL, 'AAPL.US.csv').map((action) => [
        action.kind,
        action.symbol,
        action.exDate,
        (action.kind === 'dividend' ? action.perShare : action.ratio).toString(),
      ]),
    ).toEqual([
      ['dividend', AAPL, '2020-08-07', '0.82'],
      ['split', AAPL, '2020-08-31', '4'],
    ]);
    expect(candleFileActions('date,open,high,low,close,volume\n2020-01-02,1,1,1,1,1\n', AAPL, 'x')).toEqual([]);
  });

  it('names the file, line and field of a bad cell', () => {
    expect(() => candleFileActions('date,close,Dividends\n2020-01-02,1,a lot\n', AAPL, 'AAPL.US.csv')).toThrow(
      'AAPL.US.csv:2: Dividends: "a lot" is not a number',
    );
  });

  it('reads an actions file of dividends and splits', () => {
    const text = 'symbol,date,kind,value\n700.HK,2024-05-17,dividend,3.4\n700.HK,2024-06-03,split,0.1\n';
    expect(parseActionsFile(text, 'actions.csv').map((action) => [action.kind, action.exDate])).toEqual([
      ['dividend', '2024-05-17'],
      ['split', '2024-06-03'],
    ]);
    expect(() => parseActionsFile('symbol,date,kind,value\n700.HK,2024-05-17,bonus,1\n', 'actions.csv')).toThrow(
      'actions.csv:2: kind: "bonus" is not dividend or split',
    );
  });

  it('counts an action once when both the candle file columns and actions.csv hold it (as data convert leaves a folder)', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'actions-'));
    try {
      await writeFile(join(folder, 'AAPL.US.csv'), 'Date,Open,High,Low,Close,Volume,Dividends\n2024-01-10,1,1,1,1,1,0.50\n');
      await writeFile(join(folder, 'actions.csv'), 'symbol,date,kind,value\nAAPL.US,2024-01-10,dividend,0.5\nAAPL.US,2024-01-11,split,2\n');
      expect((await loadCorporateActions(folder, [AAPL])).map(summary)).toEqual([
        ['dividend', '2024-01-10', '0.5'],
        ['split', '2024-01-11', '2'],
      ]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('reads the columns of a file named by its code (AAPL.csv) for the symbol the candles are read for', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'actions-'));
    try {
      await writeFile(join(folder, 'AAPL.csv'), 'Date,Open,High,Low,Close,Volume,Stock Splits\n"2024-01-16",1,1,1,1,1,"4"\n');
      expect((await loadCorporateActions(folder, [AAPL])).map(summary)).toEqual([['split', '2024-01-16', '4']]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

function summary(action: CorporateAction): [string, string, string] {
  return [action.kind, action.exDate, (action.kind === 'dividend' ? action.perShare : action.ratio).toString()];
}
