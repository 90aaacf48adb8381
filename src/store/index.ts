// The SQLite journal and its port.
export {
  DEFAULT_JOURNAL_FILE,
  noJournal,
  type ChangeSource,
  type Journal,
  type JournalDenial,
  type JournalExit,
  type JournalOrder,
  type JournalOrderChange,
} from './journal.js';
export { checkOwner, type JournalOwner } from './journal-owner.js';
export { SCHEMA_VERSION } from './schema.js';
export { openJournal } from './sqlite-journal.js';
