// --help of every market command, run in-process with the yargs setup of src/cli/main.ts.
import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { marketCommands } from '../../src/cli/commands/market-commands.js';

async function help(args: readonly string[]): Promise<string> {
  const parser = yargs([...args])
    .scriptName('trader')
    .option('json', { type: 'boolean', global: true })
    .strict()
    .help()
    .version(false)
    .exitProcess(false)
    .wrap(110);
  for (const command of marketCommands) parser.command(command);
  let usage = '';
  await parser.parseAsync([...args], {}, (_error, _argv, output) => {
    usage = output;
  });
  return usage;
}

describe('market commands --help', () => {
  it.each([['quote'], ['static'], ['candles'], ['capital-flow'], ['capital-distribution'], ['trading-days'], ['watch'], ['data', 'fetch']])(
    'explains `trader %s` with examples',
    async (...command) => {
      const usage = await help([...command, '--help']);
      expect(usage).toContain(`trader ${command.join(' ')}`);
      expect(usage).toContain('Examples:');
    },
  );

  it('documents the candle flags', async () => {
    const usage = await help(['candles', '--help']);
    for (const flag of ['--period', '--count', '--at', '--forward', '--from', '--to', '--adjust']) expect(usage).toContain(flag);
  });
});
