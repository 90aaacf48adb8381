// The last lines of the log, for the dashboard: a pino destination next to the real one (stderr), so it
// sees exactly what is logged, already redacted. Keeps the newest `limit` lines, parsed.
import { Subject } from 'rxjs';
import { Ring } from './ring.js';
import type { LogLine } from './view.js';

const LEVELS: Readonly<Record<number, string>> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const HIDDEN = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

export class LogTail {
  /** Each line as it is logged. */
  readonly lines = new Subject<LogLine>();
  private readonly ring: Ring<LogLine>;

  constructor(limit = 300) {
    this.ring = new Ring(limit);
  }

  /** pino's destination interface: one JSON line per call. */
  write(chunk: string): void {
    for (const text of chunk.split('\n')) {
      if (text.trim() === '') continue;
      const line = parse(text);
      this.ring.push(line);
      this.lines.next(line);
    }
  }

  /** Newest first. */
  recent(): LogLine[] {
    return this.ring.newestFirst();
  }
}

function parse(text: string): LogLine {
  try {
    const record = JSON.parse(text) as Record<string, unknown>;
    const fields = Object.fromEntries(Object.entries(record).filter(([key]) => !HIDDEN.has(key)));
    return {
      time: new Date(typeof record['time'] === 'number' ? record['time'] : Date.parse(String(record['time']))).toISOString(),
      level: LEVELS[Number(record['level'])] ?? String(record['level']),
      message: typeof record['msg'] === 'string' ? record['msg'] : '',
      fields: Object.keys(fields).length === 0 ? '' : JSON.stringify(fields),
    };
  } catch {
    return { time: new Date(0).toISOString(), level: 'info', message: text, fields: '' };
  }
}
