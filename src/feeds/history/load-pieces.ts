// A load that a Ctrl-C or SIGTERM may stop: its files are read and parsed a piece at a time, with a turn of the
// event loop between pieces, so the signal's handler runs and the load stops at the next piece. A load
// without a signal is read in one piece, as before.

/** Bytes read or parsed between two turns: a turn costs microseconds, a piece milliseconds. */
export const PIECE_BYTES = 4 << 20;

/** A turn of the event loop; throws the reason `signal` was aborted with, once it is. */
export async function nextPiece(signal: AbortSignal): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  signal.throwIfAborted();
}
