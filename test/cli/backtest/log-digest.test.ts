import { describe, expect, it } from 'vitest';
import { LogDigest } from '../../../src/cli/backtest/log-digest.js';
import { createLogger } from '../../../src/log/logger.js';

describe('backtest warnings digest', () => {
  it('tells each warning once, with how often it came and the fields of its first occurrence', () => {
    const digest = new LogDigest();
    const log = createLogger({ level: 'warn', destination: digest }).child({ strategy: 'dca' });

    log.info('not a warning');
    log.warn({ symbol: 'SPX.US', close: 1455.22 }, 'amount buys less than one share');
    log.warn({ symbol: 'SPX.US', close: 1399.42 }, 'amount buys less than one share');
    log.error({ detail: { code: 7 } }, 'state lost');

    expect(digest.lines()).toEqual([
      'warning: dca: amount buys less than one share (2 times; first: symbol=SPX.US close=1455.22)',
      'error: dca: state lost (detail={"code":7})',
    ]);
  });

  it('lists at most `limit` kinds and says how many more there were', () => {
    const digest = new LogDigest();
    const log = createLogger({ level: 'warn', destination: digest });
    for (let kind = 0; kind < 4; kind += 1) log.warn(`kind ${kind}`);

    expect(digest.lines(2)).toEqual([
      'warning: kind 0',
      'warning: kind 1',
      'warning: … and 2 more kinds of warning (--verbose logs every one as it happens)',
    ]);
  });
});
