// Ctrl-C (or SIGTERM: `kill`, `timeout`, a service manager) during a research run, a data fetch or a data
// convert: the first stops it (what has finished is kept and written), and says so; later ones are ignored. A
// second Ctrl-C must not kill the process before the trials are saved (a terminal or `timeout -s INT` often
// sends two), so the handler stays until the outputs are out.
export interface Interrupt {
  readonly signal: AbortSignal;
  /** Stops listening: Ctrl-C kills the process again. */
  release(): void;
}

export function listenForInterrupt(stream: NodeJS.WriteStream = process.stderr): Interrupt {
  const stop = new AbortController();
  const onInterrupt = (): void => {
    if (stop.signal.aborted) return;
    stop.abort();
    // On a terminal the progress bar holds the line.
    stream.write(
      `${stream.isTTY ? '\n' : ''}stopping: finishing the work in flight and keeping what has finished (Ctrl-C again is ignored)\n`,
    );
  };
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  return {
    signal: stop.signal,
    release: () => {
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onInterrupt);
    },
  };
}
