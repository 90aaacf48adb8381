import { describe, expect, it } from 'vitest';
import { paperAccountFile, runSettings } from '../../src/cli/run/flags.js';
import { configFromEnv } from '../../src/openapi/config.js';

const LIVE = {
  mode: 'live',
  config: configFromEnv({ LONGPORT_APP_KEY: 'key', LONGPORT_APP_SECRET: 'secret', LONGPORT_ACCESS_TOKEN: 'token' }),
} as const;
const PAPER = { mode: 'paper' } as const;

describe('trader run flags', () => {
  it('gives a paper run its own journal, with the paper account kept next to it, the bundled data and a market hour per second', () => {
    expect(runSettings({ strategy: 's.ts' }, PAPER)).toEqual({
      journal: 'state/paper-journal.sqlite',
      paper: {
        data: 'backtest-data',
        from: undefined,
        speed: 3600,
        cash: '1000000',
        onBadRow: 'fail',
        shortSelling: false,
        borrowFeeRate: 0,
        shortMarginRatios: null,
        adjust: 'none',
        stateFile: 'state/paper-journal.account.sqlite',
      },
      forMs: undefined,
      symbols: undefined,
    });
    expect(runSettings({ strategy: 's.ts' }, LIVE)).toMatchObject({ journal: 'state/journal.sqlite', paper: undefined });
  });

  it('keeps the paper account next to a journal given with --journal', () => {
    expect(paperAccountFile('/tmp/runs/aapl.sqlite')).toBe('/tmp/runs/aapl.account.sqlite');
    expect(paperAccountFile('journal')).toBe('journal.account.sqlite');
  });

  it('reads --for as wall time and --symbols as a list', () => {
    expect(runSettings({ strategy: 's.ts', for: '30m', symbols: 'AAPL.US, 700.HK' }, PAPER)).toMatchObject({
      forMs: 1_800_000,
      symbols: ['AAPL.US', '700.HK'],
    });
  });

  it('names the flag of every bad value', () => {
    expect(() => runSettings({ strategy: 's.ts', for: 'soon' }, PAPER)).toThrow(
      '--for: "soon" is not a duration (use a number and a unit: 90s, 30m, 2h, 1d)',
    );
    expect(() => runSettings({ strategy: 's.ts', speed: 0 }, PAPER)).toThrow('--speed: must be a number greater than zero (got 0)');
    expect(() => runSettings({ strategy: 's.ts', cash: '-5' }, PAPER)).toThrow('--cash: "-5" is not a positive amount');
    expect(() => runSettings({ strategy: 's.ts', from: '2024-02-30' }, PAPER)).toThrow('--from: "2024-02-30" is not a date (YYYY-MM-DD)');
    expect(() => runSettings({ strategy: 's.ts', symbols: ' , ' }, PAPER)).toThrow(/^--symbols: name at least one symbol/);
    expect(() => runSettings({ strategy: 's.ts', 'on-bad-row': 'ignore' }, PAPER)).toThrow(
      '--on-bad-row: "ignore" is not one of fail, skip',
    );
  });

  it('takes --on-bad-row skip for a paper run', () => {
    expect(runSettings({ strategy: 's.ts', 'on-bad-row': 'skip' }, PAPER).paper?.onBadRow).toBe('skip');
  });

  it('takes --short, --borrow-rate, --short-margin and --adjust for the paper venue, checked as a backtest checks them', () => {
    expect(
      runSettings({ strategy: 's.ts', short: true, 'borrow-rate': '0.03', 'short-margin': '1.5,1.3,1.2', adjust: 'forward' }, PAPER).paper,
    ).toMatchObject({ shortSelling: true, borrowFeeRate: 0.03, shortMarginRatios: { im: '1.5', mm: '1.3', fm: '1.2' }, adjust: 'forward' });
    expect(runSettings({ strategy: 's.ts', short: true, 'short-margin': '2' }, PAPER).paper?.shortMarginRatios).toEqual({
      im: '2',
      mm: '2',
      fm: '2',
    });
    expect(() => runSettings({ strategy: 's.ts', 'borrow-rate': '0.03' }, PAPER)).toThrow('--borrow-rate: only with --short');
    expect(() => runSettings({ strategy: 's.ts', short: true, 'short-margin': '1.2,1.5,1' }, PAPER)).toThrow(
      '--short-margin: the factors must satisfy IM ≥ MM ≥ FM (give IM,MM,FM, e.g. 1.5,1.3,1.2, or one factor), got "1.2,1.5,1"',
    );
    expect(() => runSettings({ strategy: 's.ts', adjust: 'back' }, PAPER)).toThrow('--adjust: "back" is not one of none, forward');
    expect(() => runSettings({ strategy: 's.ts', short: true }, LIVE)).toThrow(/^--short only apply to paper runs/);
  });

  it("refuses the simulator's flags on a live run", () => {
    expect(() => runSettings({ strategy: 's.ts', data: 'x', speed: 10 }, LIVE)).toThrow(
      '--data, --speed only apply to paper runs (the simulator); a live run trades the real market',
    );
  });
});
