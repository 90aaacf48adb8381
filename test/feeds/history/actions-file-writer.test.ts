import { describe, expect, it } from 'vitest';
import { Fixed } from '../../../src/domain/fixed.js';
import { Price } from '../../../src/domain/price.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import { withActions } from '../../../src/feeds/history/actions-file-writer.js';

const AAPL = parseSymbol('AAPL.US');
const dividend = { kind: 'dividend', symbol: AAPL, exDate: '2024-01-10', perShare: Price.of('0.5') } as const;
const split = { kind: 'split', symbol: AAPL, exDate: '2024-01-16', ratio: Fixed.of('2') } as const;

describe('adding actions to an actions.csv', () => {
  it('starts a file with its header when there is none', () => {
    expect(withActions(undefined, [split, dividend], 'actions.csv').text).toBe(
      'symbol,date,kind,value\nAAPL.US,2024-01-10,dividend,0.5\nAAPL.US,2024-01-16,split,2\n',
    );
  });

  it('keeps what the file holds, adds only the actions it lacks, in its own column order', () => {
    const { text, added } = withActions(
      'date,symbol,value,kind,note\n2024-01-10,AAPL.US,0.50,dividend,paid',
      [dividend, split, split],
      'a.csv',
    );
    expect(added).toEqual([split]);
    expect(text).toBe('date,symbol,value,kind,note\n2024-01-10,AAPL.US,0.50,dividend,paid\n2024-01-16,AAPL.US,2,split,\n');
  });
});
