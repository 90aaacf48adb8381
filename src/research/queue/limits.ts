// How much of a run the queue holds in Redis: apart from the submitter, which loads BullMQ only with --queue.

/** Trials of a run on the queue at once whose results have not come back. */
export const QUEUE_WINDOW = 4096;

/** Finished trials Redis keeps (an hour) for a run submitted again. */
export const KEPT_FINISHED = 10_000;
