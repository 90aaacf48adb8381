// What `trader worker` tells whoever runs it: a line each on stderr (its log), and with --json the same events
// as JSON lines on stdout for a script, tagged by `type` as `trader watch` tags its pushes.
import { writeJsonLine } from '../market/format.js';

export type WorkerEvent =
  | { readonly type: 'ready'; readonly threads: number; readonly queue: string }
  | { readonly type: 'trials'; readonly total: number; readonly recent: number; readonly seconds: number }
  /** `retrying`: a lost connection, which the client keeps trying. */
  | { readonly type: 'error'; readonly message: string; readonly retrying: boolean }
  | { readonly type: 'stopped'; readonly trials: number };

export function workerLine(event: WorkerEvent): string {
  switch (event.type) {
    case 'ready':
      return `worker ready: ${event.threads} thread${event.threads === 1 ? '' : 's'} on ${event.queue}\n`;
    case 'trials':
      return `worker: ${event.total} trials so far, ${event.recent} in the last ${event.seconds} s\n`;
    case 'error':
      return `worker: ${event.message}${event.retrying ? ' (retrying)' : ''}\n`;
    case 'stopped':
      return `worker stopped after ${event.trials} trials\n`;
  }
}

/** Tells each event on stderr and, with `json`, on stdout as a JSON line. */
export function workerReporter(json: boolean): (event: WorkerEvent) => void {
  return (event) => {
    process.stderr.write(workerLine(event));
    if (json) writeJsonLine(event);
  };
}
