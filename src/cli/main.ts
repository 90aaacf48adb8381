// The `trader` command line: parses, dispatches to one command module per area, prints errors as one line.
// bin/trader.js calls main() (plain start) and so does the start-up snapshot (src/cli/snapshot/).
import { createRequire } from 'node:module';
import type { Argv } from 'yargs';
import type yargsEsm from 'yargs';
import { backtestCommands } from './commands/backtest-commands.js';
import { catalogCommands } from './commands/catalog-commands.js';
import { marketCommands } from './commands/market-commands.js';
import { projectCommands } from './commands/project-commands.js';
import { researchCommands } from './commands/research-commands.js';
import { runCommands } from './commands/run-commands.js';
import { scheduleCommands } from './commands/schedule-commands.js';
import { simCommands } from './commands/sim-commands.js';
import { tradingCommands } from './commands/trading-commands.js';
import { InvalidInputError } from '../domain/errors.js';
import { consoleToStderr } from '../log/console-to-stderr.js';
import { emptyFlagsMiddleware } from './empty-flags.js';
import { exitCodeFor, formatError } from './errors.js';
import { pasteableExamples } from './help-examples.js';
import { repeatedFlagsMiddleware } from './repeated-flags.js';

// yargs' CommonJS build: its help layout wraps at word boundaries (wrap-ansi); the ESM build's cuts
// descriptions in the middle of words.
const yargs = createRequire(import.meta.url)('yargs') as typeof yargsEsm;

// Each area lists its commands in src/cli/commands/ as lazyCommand(name, description, import of its module).
const commands = [
  ...projectCommands,
  ...backtestCommands,
  ...researchCommands,
  ...runCommands,
  ...scheduleCommands,
  ...simCommands,
  ...tradingCommands,
  ...marketCommands,
  ...catalogCommands,
];

export async function main(argv: readonly string[]): Promise<void> {
  const verbose = argv.includes('--verbose');
  // A reader that has gone (`trader … --json - | head`) wants no more output: the command still finishes
  // (its files, its exit status), and what it would print is dropped instead of failing the command.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  const parser = createParser(argv, Math.min(110, process.stdout.columns ?? 110));
  try {
    await parser.parseAsync();
  } catch (error) {
    // A lazily loaded command's own parse rejects with yargs' error instead of calling fail().
    if (error instanceof Error && error.name === 'YError') {
      process.stderr.write(usageError(error.message, argv));
      process.exitCode = 2;
      return;
    }
    process.stderr.write(`${formatError(error, verbose)}\n`);
    process.exitCode = exitCodeFor(error);
  }
}

/** The command line's parser, its help laid out `columns` wide. */
export function createParser(argv: readonly string[], columns: number): Argv {
  const parser = yargs([...argv])
    .scriptName('trader')
    .usage('$0 <command> [options]\n\nAutomated trading on the LongPort OpenAPI: backtest, paper and live trading, scheduling.')
    .option('json', { type: 'boolean', describe: 'Print results as JSON (for scripts)', global: true })
    .option('verbose', { type: 'boolean', describe: 'Show stack traces and debug logs', global: true })
    .strict()
    .demandCommand(1, NO_COMMAND)
    .recommendCommands()
    .help()
    .alias('help', 'h')
    .version(false)
    // '-hedge' is one unknown flag, not -h (help: exit 0 without doing anything) -e -d -g -e; -h is the only short flag.
    .parserConfiguration({ 'short-option-groups': false })
    .wrap(columns)
    .fail((message, error, usage) => {
      // yargs' own complaints about the command line (YError) are usage errors like the others: status 2.
      if (error !== undefined && error !== null && error.name !== 'YError') throw error;
      // `trader` alone: the list of commands the message points to, on stderr (stdout may be a script's).
      if (message === NO_COMMAND) parser.showHelp((help) => process.stderr.write(`${help}\n\n`));
      process.stderr.write(usageError(message ?? error?.message ?? '', argv, commandForm(usage)));
      process.exit(2);
    });
  parser.middleware((args) => {
    // Commands give --json a file (or - for stdout) where the global flag is a switch.
    const json: unknown = args['json'];
    if (json === true || json === '-' || args['csv'] === '-') consoleToStderr();
  }, true);
  parser.middleware(repeatedFlagsMiddleware, true);
  parser.middleware(emptyFlagsMiddleware(argv), true);
  // A number option given text yargs reads as NaN: refused naming the text, before a command says "got NaN".
  parser.middleware((args) => {
    for (const [key, value] of Object.entries(args)) {
      if (typeof value !== 'number' || !Number.isNaN(value) || key.length < 2 || /[A-Z]/.test(key)) continue;
      throw new InvalidInputError(`--${key}: a number expected, got ${JSON.stringify(rawValue(argv, key) ?? '')}`, `--${key}`);
    }
  }, true);
  pasteableExamples(parser, columns);
  for (const command of commands) parser.command(command);
  skipHelpCache(parser);
  return parser;
}

const NO_COMMAND = 'Name a command; see the list above.';

/**
 * A complaint of yargs about the command line, as trader words it. `form`: the form of the command yargs was
 * reading (`order show <orderId>`), when known.
 */
export function usageError(message: string, argv: readonly string[], form?: string): string {
  const flag = /^Not enough arguments following: (\S+)$/.exec(message)?.[1];
  const said =
    flag === undefined
      ? (missingArguments(message, argv, form) ?? invalidChoices(message, argv) ?? message)
      : `--${flag} needs a value${dashedValueHint(flag, argv)}`;
  return `error: ${said}\nRun with --help for usage.\n`;
}

/** A word after a flag that starts with a dash ('--remark -hedge') reads as another flag: say how to give it. */
function dashedValueHint(flag: string, argv: readonly string[]): string {
  const next = argv[argv.indexOf(`--${flag}`) + 1];
  // A word with two dashes is the next flag: the value was left out, not mistaken.
  return next?.startsWith('-') && !next.startsWith('--') ? `; a value that starts with a dash is written --${flag}=${next}` : '';
}

/**
 * The form of the (sub)command being parsed, from the usage object yargs hands fail() (typed as a parser in
 * @types/yargs): "$0 order show <orderId>" gives "order show <orderId>".
 */
function commandForm(usage: unknown): string | undefined {
  const forms = (usage as { getUsage?: () => readonly (readonly [string, string])[] } | undefined)?.getUsage?.();
  const form = forms?.[0]?.[0];
  return form?.startsWith('$0 ') && !form.startsWith('$0 <command>') ? form.slice(3) : undefined;
}

/**
 * yargs says "Invalid values:" on a line of its own, then "Argument: fees, Given: "hk", Choices: …" per value: one
 * line in the words of trader's own choice flags instead (--fees: "hk" is not one of none, hk-stock, …).
 */
function invalidChoices(message: string, argv: readonly string[]): string | undefined {
  if (!message.startsWith('Invalid values:')) return undefined;
  const values = [...message.matchAll(/Argument: (\S+), Given: (.+), Choices: (.+)$/gm)].map(([, name, given, choices]) => {
    // A flag is named as typed (--fees); a positional argument by its name in the command's form (kind).
    const shown = argv.some((word) => word === `--${name}` || word.startsWith(`--${name}=`)) ? `--${name}` : name!;
    return `${shown}: ${given} is not one of ${choices!.replaceAll('"', '')}`;
  });
  return values.length === 0 ? undefined : values.join('; ');
}

/** The text given for `--key` (as `--key text` or `--key=text`), as typed. */
function rawValue(argv: readonly string[], key: string): string | undefined {
  for (let index = 0; index < argv.length; index += 1) {
    const word = argv[index]!;
    if (word === `--${key}`) return argv[index + 1];
    if (word.startsWith(`--${key}=`)) return word.slice(key.length + 3);
  }
  return undefined;
}

/**
 * yargs says "Not enough non-option arguments: got 0, need at least 1" for `trader backtest` alone and for
 * `trader order show` alone: show the command's form instead, which names what it takes.
 */
function missingArguments(message: string, argv: readonly string[], form: string | undefined): string | undefined {
  if (!message.startsWith('Not enough non-option arguments')) return undefined;
  if (form !== undefined) return `not enough arguments for trader ${form}`;
  const [name, action] = argv.filter((word) => !word.startsWith('-'));
  const usage = commands.map((command) => String(command.command)).find((form) => form.split(' ')[0] === name);
  const needed = usage?.match(/<[^>]+>/g);
  if (usage === undefined || needed == null) return undefined;
  // A group (data <action>) whose action was given: what is missing is the action's, which yargs tells.
  if ((needed[0] === '<action>' || needed[0] === '<command>') && action !== undefined) return undefined;
  return `not enough arguments for trader ${usage}`;
}

interface YargsInternals {
  getInternalMethods(): { getUsageInstance(): { cacheHelpMessage(): void } };
}

/**
 * yargs lays out a command's whole help text before it runs the command's handler (usage.cacheHelpMessage), to
 * show it should the handler fail; .fail() above never shows help, so that would cost every command 10–30 ms of
 * start-up for nothing (bench/README.md, "Start-up"). The usage object outlives yargs' resets between commands.
 */
function skipHelpCache(parser: Argv): void {
  (parser as unknown as YargsInternals).getInternalMethods().getUsageInstance().cacheHelpMessage = () => undefined;
}
