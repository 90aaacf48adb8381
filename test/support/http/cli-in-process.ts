// Runs the trading and market commands inside the test process (same yargs setup as src/cli/main.ts), capturing
// what they print: for the many flag and output variants that do not each need a process of their own.
import yargs from 'yargs';
import { marketCommands } from '../../../src/cli/commands/market-commands.js';
import { tradingCommands } from '../../../src/cli/commands/trading-commands.js';

export interface InProcessRun {
  readonly stdout: string;
  readonly stderr: string;
  /** What yargs printed for --help or a usage problem. */
  readonly usage: string;
  readonly error: unknown;
}

export async function runInProcess(args: readonly string[]): Promise<InProcessRun> {
  const parser = yargs([...args])
    .scriptName('trader')
    .option('json', { type: 'boolean', global: true })
    .option('verbose', { type: 'boolean', global: true })
    .strict()
    .help()
    .version(false)
    .exitProcess(false)
    .wrap(110);
  for (const command of [...tradingCommands, ...marketCommands]) parser.command(command);
  const chunks: string[] = [];
  const errorChunks: string[] = [];
  const write = process.stdout.write;
  const writeError = process.stderr.write;
  // Hand-written stand-ins for stdout and stderr while the command runs; restored before returning.
  process.stdout.write = ((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    errorChunks.push(String(chunk));
    return true;
  }) as typeof process.stderr.write;
  let usage = '';
  let error: unknown;
  try {
    await parser.parseAsync([...args], {}, (parseError, _argv, output) => {
      usage = output;
      if (parseError) error = parseError;
    });
  } catch (caught) {
    error = caught;
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeError;
  }
  return { stdout: chunks.join(''), stderr: errorChunks.join(''), usage, error };
}
