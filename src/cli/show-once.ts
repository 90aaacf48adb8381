// Shows a secret to the person at the terminal, not to a log: written to the controlling terminal
// (/dev/tty) even when stdout and stderr go to files or a journal; nowhere when there is no terminal.
import { closeSync, openSync, writeSync } from 'node:fs';

/** True when the text reached a terminal. */
export function showOnTerminal(text: string): boolean {
  let descriptor: number;
  try {
    descriptor = openSync('/dev/tty', 'w');
  } catch {
    return false;
  }
  try {
    writeSync(descriptor, text.endsWith('\n') ? text : `${text}\n`);
    return true;
  } catch {
    return false;
  } finally {
    closeSync(descriptor);
  }
}
