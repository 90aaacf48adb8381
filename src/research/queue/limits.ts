// How much of a run the queue holds in Redis: apart from the submitter, which loads BullMQ only with --queue.

/** Trials of a run on the queue at once whose results have not come back. */
export const QUEUE_WINDOW = 4096;

/** Finished trials Redis keeps (an hour) for a run submitted again. */
export const KEPT_FINISHED = 10_000;

/**
 * Events Redis keeps in the queue's stream (BullMQ's default is 10,000, about four a job): a completed job's
 * event carries its trials' results, several trials a job. One trimmed before the submitter read it is read
 * back from its job (the submitter's stallMs).
 */
export const EVENTS_KEPT = 1_000;

/**
 * Jobs queued by one add: each job adds two events to the stream at once (added, waiting), so an add stays
 * well inside EVENTS_KEPT however small the jobs (a window of one-trial jobs would otherwise add 8,000).
 */
export const JOBS_ADDED_AT_ONCE = 128;
