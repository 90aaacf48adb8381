// Which replay a paper run plays. A kept paper account (its file next to the journal) belongs to the replay
// it started with: resuming it goes on with that replay, whatever `--from` says now, so another `--from` is
// refused rather than silently ignored (the account's orders, positions and market time come from the first).
import { existsSync } from 'node:fs';
import { InvalidInputError } from '../domain/errors.js';
import type { Logger } from '../log/logger.js';
import type { JournalOwner } from '../store/journal-owner.js';
import type { PaperMarketOptions } from './paper-market.js';

/** The paper venue to start: `from` taken from the journal when the account is resumed; throws for another `--from`. */
export function paperReplay(
  venue: PaperMarketOptions,
  recorded: JournalOwner | undefined,
  journalFile: string,
  logger: Logger,
): PaperMarketOptions {
  const resumed = venue.stateFile !== undefined && existsSync(venue.stateFile);
  if (venue.simulator !== undefined || !resumed || recorded?.mode !== 'paper' || recorded.replayFrom === undefined) return venue;
  const started = recorded.replayFrom;
  if (venue.from !== undefined && venue.from !== started) {
    const first = started === '' ? "the data's first bar" : started;
    throw new InvalidInputError(
      `--from ${venue.from}: the paper account in ${venue.stateFile} belongs to a replay that started at ${first}, and resuming it goes on ` +
        `where it stopped; leave out --from to resume it, or start afresh at ${venue.from} with another --journal ` +
        `(or delete ${journalFile} and ${venue.stateFile})`,
      '--from',
    );
  }
  if (venue.from === undefined && started !== '')
    logger.info({ from: started, paperAccount: venue.stateFile }, `resuming the paper account's replay (it started at ${started})`);
  if (started === '') return venue;
  return { ...venue, from: started };
}
