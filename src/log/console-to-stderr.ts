// What code prints with console.log (a strategy's own lines) goes to stderr while stdout carries a
// command's JSON or CSV, and always from research threads, whose stdout is not the command's output.
import { Console } from 'node:console';

export function consoleToStderr(): void {
  globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
}
