// What code prints with console.log (a strategy's own lines) goes to stderr while stdout carries a
// command's JSON or CSV, and always from research threads, whose stdout is not the command's output.
import { format } from 'node:util';

export function consoleToStderr(): void {
  // Its methods replaced, not the console: the start-up snapshot has no Console class to make another.
  const toStderr = (...values: unknown[]): void => void process.stderr.write(`${format(...values)}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}
