import { describe, expect, it } from 'vitest';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { candleFileActions, parseActionsFile } from '../../../src/feeds/history/corporate-actions-file.js';

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
});
