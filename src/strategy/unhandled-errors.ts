// Errors thrown in a subscription a strategy made itself (its own .subscribe callback, outside the streams
// run() returns and outside onCandle) are not the runtime's to catch: RxJS reports them later, from a timer,
// and by default throws them there, ending the process with a dump of the bundled library's source line.
// A process of the command line reports them instead: one line per distinct error, with the place in the
// user's file, a count of repeats at exit, and exit status 1.
import { config } from 'rxjs';
import { describeWhere, locateInStack } from './failure.js';

const WHAT =
  'a subscription the strategy made itself threw (the runtime catches errors only in the streams run() returns and in onCandle; return the stream instead of subscribing to it)';

export function reportUnhandledStreamErrors(write: (text: string) => void = (text) => process.stderr.write(text)): void {
  // A handler set by the embedding program stays.
  if (config.onUnhandledError !== null) return;
  const seen = new Map<string, number>();
  config.onUnhandledError = (error: unknown) => {
    process.exitCode = 1;
    const cause = error instanceof Error ? error.message : String(error);
    // No strategy file to look for: the first frame outside Node, node_modules and the runtime is the user's.
    const line = describeWhere(locateInStack(error instanceof Error ? error.stack : undefined, ''), undefined, cause);
    const count = (seen.get(line) ?? 0) + 1;
    seen.set(line, count);
    if (count === 1) write(`error: ${WHAT}: ${line}\n`);
  };
  process.once('exit', () => {
    for (const [line, count] of seen) if (count > 1) write(`error: thrown ${count} times in all: ${line}\n`);
  });
}
