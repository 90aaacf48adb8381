// `trader sim`: runs the simulated broker until SIGINT/SIGTERM. Stdout gets the six LONGPORT_* variables as
// `export` lines (or one JSON object with --json) for `eval "$(trader sim)"`-style use; logs go to stderr.
import type { Argv, CommandModule } from 'yargs';
import { InvalidInputError } from '../../domain/errors.js';
import { parseChoice } from '../../domain/order-types.js';
import { createLogger } from '../../log/logger.js';
import {
  DEFAULT_CASH,
  DEFAULT_SPEED,
  ENV_NAMES,
  startSimulator,
  type SimulatorEnv,
  type SimulatorOptions,
} from '../../sim/server/index.js';
import { FEE_SETTINGS } from '../../sim/venue/index.js';
import { BAD_ROW_POLICIES, SHORT_MARGIN_HELP, shortChoice } from '../backtest/flags.js';
import { PRICE_ADJUSTMENTS } from '../../domain/corporate-action.js';
import { untilInterrupted } from '../market/socket-session.js';
import { printJson } from '../output.js';
import { parseSeed, seedOption } from '../research/seed.js';
import { defaultDataPath } from '../project/config.js';
import { dateFlag, symbolFlag } from '../trading/flags.js';
import { faultOptions, faultPlanFrom } from './fault-flags.js';

interface GlobalArgs {
  readonly json?: boolean | undefined;
  readonly verbose?: boolean | undefined;
}

function simOptions(yargs: Argv<GlobalArgs>) {
  return faultOptions(
    yargs
      .option('port', { type: 'number', default: 0, describe: 'Port for HTTP and both WebSockets (0 picks a free one)' })
      .option('host', { type: 'string', default: '127.0.0.1', describe: 'Address to listen on' })
      .option('data', {
        type: 'string',
        array: true,
        describe:
          "Candle files (CSV or Parquet) or folders of SYMBOL.csv / SYMBOL.parquet files (repeatable; default: the project's data folder, see trader.json, else the bundled sample)",
      })
      .option('symbols', { type: 'string', describe: 'Only these symbols of the data, comma-separated (e.g. 700.HK,AAPL.US)' })
      .option('from', { type: 'string', describe: 'Start the replay at this date (YYYY-MM-DD); earlier bars are served as history' })
      .option('speed', {
        type: 'number',
        default: DEFAULT_SPEED,
        describe: 'Market time per real time: 60 plays a market minute per second',
      })
      .option('cash', { type: 'string', default: String(DEFAULT_CASH), describe: 'Starting cash in each account currency' })
      .option('currency', {
        type: 'string',
        describe: "Account currencies, comma-separated (default: those of the data's markets, e.g. USD for .US symbols)",
      })
      .option('seed', seedOption('Seed of every random choice (faults, synthesised depth and capital flow)'))
      .option('state', { type: 'string', describe: 'SQLite file that keeps orders, positions, cash and keys across restarts' })
      .option('short', { type: 'boolean', describe: 'Allow short selling (sells beyond the position, margined)' })
      .option('borrow-rate', {
        type: 'string',
        describe: 'With --short: annual borrow fee on short value, charged per calendar day held, e.g. 0.03',
      })
      .option('short-margin', { type: 'string', describe: SHORT_MARGIN_HELP })
      .option('adjust', {
        type: 'string',
        default: 'none',
        describe:
          'What the prices are: none (unadjusted; dividends and splits from Dividends/Stock Splits columns or actions.csv are applied on their ex-dates) or forward (already adjusted; none applied)',
      })
      .option('fees', { type: 'string', choices: FEE_SETTINGS, default: 'none', describe: 'Fee schedule charged on fills' })
      .option('on-bad-row', {
        type: 'string',
        default: 'fail',
        describe: 'Bad rows of the candle files (CSV or Parquet): fail (list the first 10 and stop) or skip them with a warning each',
      })
      .option('app-key', { type: 'string', describe: 'Use this app key instead of a generated one' })
      .option('app-secret', { type: 'string', describe: 'Use this app secret instead of a generated one' })
      .option('access-token', { type: 'string', describe: 'Use this access token instead of a generated one' })
      .option('rate-limits', {
        type: 'boolean',
        default: true,
        describe: "Enforce the service's call limits (--no-rate-limits for load tests)",
      }),
  )
    .epilogue(
      'Prints `export LONGPORT_…=…` lines for the app key, secret, token and the three URLs; paste them into a shell (or ' +
        'eval them) and `trader …` commands, strategies and the official LongPort SDK all talk to the simulator. ' +
        "The replay turns each bar into four ticks (open, high/low, close) inside the market's sessions, idle time skipped.",
    )
    .example('$0 sim', 'Replay backtest-data/ at 60x with USD 1,000,000')
    .example(
      '$0 sim --state sim.sqlite > sim.env & sleep 1; . ./sim.env',
      'Run in the background, keep the account in sim.sqlite, load the variables',
    )
    .example('$0 sim --short --borrow-rate 0.03', 'Let sells open shorts, paying 3% a year to borrow')
    .example('$0 sim --data data/ --symbols 700.HK --speed 600 --fault-http-5xx 0.1 --seed 7', 'One symbol, 10x faster, 10 % HTTP 500s');
}

type SimArgs = ReturnType<typeof simOptions> extends Argv<infer T> ? T : never;

function shellQuote(value: string): string {
  return /^[A-Za-z0-9_\-.:/]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

function exportLines(env: SimulatorEnv): string {
  return ENV_NAMES.map((name) => `export ${name}=${shellQuote(env[name])}\n`).join('');
}

function simulatorOptionsFrom(args: SimArgs): SimulatorOptions {
  const list = (text: string | undefined): string[] =>
    (text ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
  if (!/^\d+(\.\d+)?$/.test(args.cash.trim())) throw new InvalidInputError(`--cash: "${args.cash}" is not a positive amount`, '--cash');
  const currencies = list(args.currency).map((code) => code.toUpperCase());
  const badCurrency = currencies.find((code) => !/^[A-Z]{3}$/.test(code));
  if (badCurrency !== undefined) throw new InvalidInputError(`--currency: "${badCurrency}" is not a 3-letter currency code`, '--currency');
  const symbols = list(args.symbols).map((text) => symbolFlag(text, '--symbols'));
  return {
    port: args.port,
    host: args.host,
    data: args.data,
    ...(symbols.length === 0 ? {} : { symbols }),
    ...(args.from === undefined ? {} : { from: dateFlag(args.from, '--from') }),
    onBadRow: parseChoice(BAD_ROW_POLICIES, String(args['on-bad-row']), '--on-bad-row'),
    speed: args.speed,
    cash: args.cash.trim(),
    ...(currencies.length === 0 ? {} : { currency: currencies }),
    seed: parseSeed(args.seed),
    faults: faultPlanFrom(args as unknown as Record<string, unknown>),
    adjust: parseChoice(PRICE_ADJUSTMENTS, String(args.adjust), '--adjust'),
    venue: { fees: args.fees as (typeof FEE_SETTINGS)[number], ...shortChoice(args) },
    credentials: {
      ...(args['app-key'] === undefined ? {} : { appKey: args['app-key'] }),
      ...(args['app-secret'] === undefined ? {} : { appSecret: args['app-secret'] }),
      ...(args['access-token'] === undefined ? {} : { accessToken: args['access-token'] }),
    },
    ...(args.state === undefined ? {} : { stateFile: args.state }),
    ...(args['rate-limits'] ? {} : { limits: { http: false, quote: false } }),
  };
}

export const simCommand: CommandModule<GlobalArgs, SimArgs> = {
  command: 'sim',
  describe: 'Run the simulated broker (HTTP + quote/trade WebSockets over market replay) until Ctrl-C',
  builder: simOptions,
  handler: async (args) => {
    if (!(args.speed > 0) || !Number.isFinite(args.speed))
      throw new InvalidInputError(`--speed: must be a finite number greater than zero (got ${args.speed})`, '--speed');
    if (!Number.isInteger(args.port) || args.port < 0 || args.port > 65_535)
      throw new InvalidInputError(`--port: must be 0 to 65535 (got ${args.port})`, '--port');
    const options = simulatorOptionsFrom({ ...args, data: args.data ?? [await defaultDataPath(undefined)] });
    const logger = createLogger({
      level: args.verbose ? 'debug' : (process.env['LOG_LEVEL'] ?? 'info'),
      pretty: process.stderr.isTTY === true,
      name: 'sim',
    });
    // Listening for the signals before anything is printed: a caller may stop us as soon as it has the variables.
    // A signal while the data is read stops the read (a big file is read in pieces), and nothing is opened.
    const interrupted = untilInterrupted();
    const startCut = new AbortController();
    void interrupted.then(() => startCut.abort(new Error('interrupted while starting')));
    logger.debug({ data: options.data }, 'reading the data');
    const simulator = await startSimulator({ ...options, logger, signal: startCut.signal }).catch((error: unknown) => {
      if (startCut.signal.aborted) return undefined;
      throw error;
    });
    if (simulator === undefined) {
      logger.warn('interrupted while starting: the data was not all read; nothing was left running');
      process.exitCode = 130;
      return;
    }
    if (args.json) printJson(simulator.env);
    else process.stdout.write(exportLines(simulator.env));
    logger.info({ symbols: simulator.symbols, speed: options.speed }, 'simulator ready; Ctrl-C stops it');
    await interrupted;
    await simulator.close();
  },
};
