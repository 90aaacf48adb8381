import yargs, { type Argv } from 'yargs';
import { describe, expect, it } from 'vitest';
import { initCommand } from '../../../src/cli/project/init-command.js';
import { newCommand } from '../../../src/cli/project/new-command.js';
import { TEMPLATES } from '../../../src/cli/project/templates.js';

async function helpOf(builder: unknown): Promise<string> {
  const help = await (builder as (argv: Argv) => Argv)(yargs([]).wrap(null)).getHelp();
  return help.replace(/\s+/g, ' ');
}

describe('the --template help of trader init and trader new', () => {
  it('says what every template is, bracket included', async () => {
    for (const help of [await helpOf(initCommand.builder), await helpOf(newCommand.builder)]) {
      for (const template of TEMPLATES) expect(help).toMatch(new RegExp(`\\b${template} \\(\\w`));
      expect(help).toContain('bracket (SMA trend with a stop-loss, a take-profit and a trailing stop)');
    }
  });
});
