// `trader walkforward`'s window lengths: a value that starts with a dash is still the flag's value, so the
// length check names the flag and the value rather than yargs reading "-1y" as the flags -1 and -y.
import yargs, { type Argv } from 'yargs';
import { describe, expect, it } from 'vitest';
import { walkForwardCommand } from '../../../src/cli/research/walkforward-command.js';

function parse(argv: readonly string[]): Record<string, unknown> {
  const builder = walkForwardCommand.builder as (parser: Argv) => Argv;
  return builder(yargs()).parseSync([...argv]);
}

describe('the walkforward window flags', () => {
  it('take a negative length as their value, for the length check to refuse by name', () => {
    const parsed = parse(['s.ts', '--train', '-3y', '--test', '-1m', '--step', '-1y']);
    expect([parsed.train, parsed.test, parsed.step]).toEqual(['-3y', '-1m', '-1y']);
  });
});
