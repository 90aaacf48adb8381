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
});
