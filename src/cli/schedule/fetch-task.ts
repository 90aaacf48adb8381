// The fetch-data task as a JobRunner: `trader data fetch` for the job's symbols over the schedule's quote
// connection, from `lookback` ago (or where each SYMBOL.csv ends) to today in the job's market.
import type { Clock } from '../../domain/clock.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { localDate } from '../../domain/time-zone.js';
import type { Logger } from '../../log/logger.js';
import type { QuoteClient } from '../../openapi/socket/quote-client.js';
import type { JobRun, JobRunner, RunContext } from '../../schedule/job-runner.js';
import type { ScheduleJob } from '../../schedule/job.js';
import { fetchHistory } from '../market/data-fetch.js';

export class FetchTaskRunner implements JobRunner {
  constructor(
    private readonly quotes: QuoteClient,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  start(job: ScheduleJob, _context: RunContext): JobRun {
    const target = job.target;
    if (target.kind !== 'task') throw new Error(`job ${job.name} runs a strategy, not a task`);
    const logger = this.logger.child({ job: job.name, task: target.task });
    const zone = timeZoneOf(job.market);
    const now = this.clock.now();
    const range = { from: localDate(now - target.fetch.lookbackMs, zone), to: localDate(now, zone) };
    logger.info(
      { symbols: job.symbols, period: target.fetch.period, ...range, dataDir: target.fetch.dataDir },
      `fetching ${target.fetch.period} bars into ${target.fetch.dataDir}`,
    );
    const done = fetchHistory(
      this.quotes,
      { symbols: job.symbols, period: target.fetch.period, ...range, outDir: target.fetch.dataDir, adjust: 'none' },
      (symbol, message) => logger.debug({ symbol }, message),
    ).then((results) => {
      logger.info(
        { added: Object.fromEntries(results.map((result) => [result.symbol, result.added])) },
        `fetched ${results.reduce((sum, result) => sum + result.added, 0)} bar(s)`,
      );
      return 'completed' as const;
    });
    // A fetch appends page by page and resumes where its files end: stopping means letting the page finish.
    return {
      done,
      stop: () =>
        done.then(
          () => undefined,
          () => undefined,
        ),
    };
  }
}
