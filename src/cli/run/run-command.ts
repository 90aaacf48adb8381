// `trader run STRATEGY`: the command's flags, help and examples; the work is in run-action.ts.
import type { CommandModule } from 'yargs';
import { PERIODS } from '../../domain/period.js';
import { DEFAULT_JOURNAL_FILE } from '../../store/journal.js';
import { SHORT_MARGIN_HELP } from '../backtest/flags.js';
import { DEFAULT_PAPER_CASH, DEFAULT_PAPER_JOURNAL, DEFAULT_PAPER_SPEED, type RunArgs } from './flags.js';
import { defaultDataPath, defaultProjectFile } from '../project/config.js';
import { DEFAULT_UI_PORT } from './ops-flags.js';
import { runAction } from './run-action.js';

export const runCommand: CommandModule<object, RunArgs> = {
  command: 'run <strategy>',
  describe: 'Run a strategy: paper trading against the built-in simulator (default), or live with --live --yes',
  builder: (yargs) =>
    yargs
      .positional('strategy', {
        type: 'string',
        demandOption: true,
        describe: 'Strategy file (.ts or .js), e.g. strategies/sma-crossover.ts',
      })
      .option('paper', {
        type: 'boolean',
        describe: 'Paper trading: the simulator replays candle files over the real protocol (the default)',
      })
      .option('live', { type: 'boolean', describe: 'Trade the real account named by the LONGPORT_* variables (needs --yes)' })
      .option('yes', { type: 'boolean', describe: 'Confirm --live: real orders with real money' })
      .option('symbols', { type: 'string', describe: "Comma-separated symbols instead of the strategy's own" })
      .option('period', { type: 'string', describe: `Bar period the strategy sees (${PERIODS.join(', ')})` })
      .option('param', { type: 'string', array: true, describe: 'Strategy parameter key=value (repeatable)' })
      .option('journal', {
        type: 'string',
        describe: `SQLite journal of intents, orders, fills, for one account (default ${DEFAULT_PAPER_JOURNAL} for paper, ${DEFAULT_JOURNAL_FILE} for live; in a project, under its folder)`,
      })
      .option('risk', { type: 'string', describe: 'Risk config JSON (limits, kill switches), e.g. risk.json' })
      // nargs: '-5s' is refused by the duration check, not read as the flags -5 and -s.
      .option('for', { type: 'string', nargs: 1, describe: 'Stop by itself after this long (wall time): 90s, 30m, 2h, 1d' })
      .option('data', {
        type: 'string',
        describe:
          "Paper: candle CSV file or folder of SYMBOL.csv files to replay (default: the project's data folder, see trader.json; else the bundled sample)",
      })
      .option('from', {
        type: 'string',
        describe:
          'Paper: start the replay at this date (YYYY-MM-DD); earlier bars are history (strategies warm up on them). A kept paper account goes on with its own replay: another date is refused',
      })
      .option('speed', {
        type: 'number',
        describe: `Paper: market time per real time (default ${DEFAULT_PAPER_SPEED}, a market hour per second)`,
      })
      .option('cash', { type: 'string', describe: `Paper: starting cash of a new paper account (default ${DEFAULT_PAPER_CASH})` })
      .option('on-bad-row', {
        type: 'string',
        describe: 'Paper: bad CSV rows: fail (list the first 10 and stop; the default) or skip them with a warning',
      })
      .option('short', {
        type: 'boolean',
        describe: 'Paper: allow short selling: a sell while flat opens a short, margined at the initial margin factor',
      })
      .option('borrow-rate', {
        type: 'string',
        describe: 'Paper, with --short: annual borrow fee on short value, charged per calendar day held, e.g. 0.03',
      })
      .option('short-margin', { type: 'string', describe: `Paper, w${SHORT_MARGIN_HELP.slice(1)}` })
      .option('adjust', {
        type: 'string',
        describe:
          'Paper: what the prices are: none (the default; dividends and splits from Dividends/Stock Splits columns or actions.csv are applied on their ex-dates, as in backtests) or forward (already adjusted; none applied)',
      })
      .option('cancel-on-exit', { type: 'boolean', describe: "Cancel the run's open orders before exiting" })
      .option('flatten-on-exit', { type: 'boolean', describe: "Close the strategy's positions with market orders before exiting" })
      .option('json-logs', {
        type: 'boolean',
        describe: 'Log JSON lines on stderr even on a terminal (they are JSON whenever stderr is not one)',
      })
      .option('ui', {
        type: 'string',
        describe: `Serve the live dashboard (and /metrics) on 127.0.0.1, port ${DEFAULT_UI_PORT} or --ui=PORT (0 picks a free one)`,
      })
      .option('ui-host', { type: 'string', describe: 'Listen on this address instead of 127.0.0.1 (put TLS in front: see the README)' })
      .option('ui-token-file', {
        type: 'string',
        describe: "The dashboard's token (made on first start, mode 600, shown once); default ui-token next to the journal",
      })
      .option('ui-read-only', { type: 'boolean', describe: 'The dashboard shows everything and does nothing' })
      .option('metrics-port', {
        type: 'number',
        describe: 'Serve /metrics (OpenMetrics, same token) on a port of its own, with or without --ui',
      })
      .option('telegram-chat', {
        type: 'string',
        array: true,
        describe: 'Telegram chat id to notify and take commands from (repeatable); the bot token comes from TELEGRAM_BOT_TOKEN',
      })
      .epilogue(
        'Logs (stderr) show connections, orders, fills, denials and PnL. Ctrl-C or SIGTERM stops gracefully: no new intents, ' +
          'requests in flight settle, the journal is flushed, a summary is printed (stdout; JSON with --json) and the exit status is 0. ' +
          'A second Ctrl-C exits at once; one while the run is still starting cuts the start short (exit status 130). On start the journal is reconciled with the broker before the strategy sees data (fills made while ' +
          'the run was down are booked, orders never confirmed are looked up in the order history), then the exits (stop-loss, take-profit, ' +
          'trailing stop) of positions still open are re-armed; orders at the broker that are not ours ' +
          'are reported, never touched. A journal belongs to one account: another account is refused. The paper account is kept next to ' +
          'the journal, so a restarted run resumes.',
      )
      .example(
        '$0 run strategies/sma-crossover.ts --from 2015-03-02',
        'Paper trading on the bundled S&P 500 history, warmed up on the bars before 2015-03-02',
      )
      .example(
        '$0 run strategies/sma-crossover.ts --speed 86400 --for 10m --risk risk.json',
        'Faster replay, with risk limits, for ten minutes',
      )
      .example(
        '$0 run strategies/rsi-mean-reversion.ts --data ~/data --symbols 700.HK --period 5m',
        'Paper trading on your own 1-minute files',
      )
      .example('$0 run strategies/sma-crossover.ts --live --yes --symbols AAPL.US --cancel-on-exit', 'Live (needs LONGPORT_* variables)')
      .example('$0 run strategies/sma-crossover.ts --ui', `Paper trading with the dashboard on http://127.0.0.1:${DEFAULT_UI_PORT}`)
      .example(
        'TELEGRAM_BOT_TOKEN=… $0 run strategies/sma-crossover.ts --telegram-chat 123456789 --metrics-port 9464',
        'Fills, denials and halts to Telegram (with /status, /flatten, /kill …), and metrics for Prometheus',
      ),
  handler: async (args) => {
    // Inside a project (trader.json) a paper run replays its data and the journal lives in its state/ folder,
    // wherever the command runs from; a live run has no data to replay.
    const live = args.live === true;
    const journal = args.journal ?? (await defaultProjectFile(args.strategy, live ? DEFAULT_JOURNAL_FILE : DEFAULT_PAPER_JOURNAL));
    const data = live ? args.data : (args.data ?? (await defaultDataPath(args.strategy)));
    await runAction({ ...args, journal, ...(data === undefined ? {} : { data }) });
  },
};
