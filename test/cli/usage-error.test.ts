import { describe, expect, it } from 'vitest';
import { usageError } from '../../src/cli/main.js';

describe("yargs' complaints about the command line, in trader's words", () => {
  it('name a value outside its choices in one line: the flag or argument, what was given and the choices', () => {
    expect(
      usageError('Invalid values:\n  Argument: fees, Given: "hk", Choices: "none", "hk-stock", "us-stock", "by-market"', [
        'sim',
        '--fees',
        'hk',
      ]),
    ).toBe('error: --fees: "hk" is not one of none, hk-stock, us-stock, by-market\nRun with --help for usage.\n');
    expect(usageError('Invalid values:\n  Argument: kind, Given: "strat", Choices: "strategy"', ['new', 'strat', 'x'])).toBe(
      'error: kind: "strat" is not one of strategy\nRun with --help for usage.\n',
    );
  });

  it('say how to give a value that starts with a dash, and not when the next word is another flag', () => {
    expect(usageError('Not enough arguments following: remark', ['order', 'submit', '--remark', '-hedge'])).toBe(
      'error: --remark needs a value; a value that starts with a dash is written --remark=-hedge\nRun with --help for usage.\n',
    );
    expect(usageError('Not enough arguments following: json', ['backtest', 's.ts', '--json', '--quiet'])).toBe(
      'error: --json needs a value\nRun with --help for usage.\n',
    );
  });
});
