// Which account a journal belongs to: the mode (paper or live), the account (the app key the service knows it
// by) and the venue it was reached at, recorded on first use. A journal holds one account's orders and
// positions; opened against another account it would mark that account's orders as never sent and mix in
// the other's, so another account or mode is refused. The venue may move (a simulator on a new port, a
// regional endpoint): the same account there is the same account.
import { InvalidInputError } from '../domain/errors.js';

export interface JournalOwner {
  readonly mode: 'paper' | 'live';
  /** The app key of the account (a paper account's is the simulator's, kept in its account file). */
  readonly account: string;
  /** Where the account was reached (the service's URL, or the paper account's file): shown, not compared. */
  readonly venue: string;
  /** Paper only: the date the replay started at (`--from`), or '' for the data's own start. */
  readonly replayFrom?: string;
}

/** Throws when the journal was written for another account or mode than `claimed`. */
export function checkOwner(file: string, recorded: JournalOwner | undefined, claimed: JournalOwner): void {
  if (recorded === undefined || (recorded.mode === claimed.mode && recorded.account === claimed.account)) return;
  const describe = (owner: JournalOwner): string => `the ${owner.mode} account ${owner.account} (${owner.venue})`;
  const advice =
    claimed.mode === 'paper' && recorded.mode === 'paper'
      ? `the paper account was replaced or deleted; delete ${file} too to start afresh, or use another --journal`
      : 'use another --journal for this account';
  throw new InvalidInputError(
    `${file} is the journal of ${describe(recorded)}, not of ${describe(claimed)}: it holds that account's orders and positions; ${advice}`,
    'journal',
  );
}
