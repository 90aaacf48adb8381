// The warnings of a backtest without --verbose (a strategy's ctx.log.warn/error, the runtime's own), kept
// while it runs and told once after it: each distinct message with how often it came and its first fields,
// instead of a hidden log or a line per bar.
import type { DestinationStream } from 'pino';

interface Entry {
  readonly strategy: string | undefined;
  readonly message: string;
  readonly error: boolean;
  /** Fields of the first line with this message (pino's own left out). */
  readonly fields: Readonly<Record<string, unknown>>;
  count: number;
}

const PINO_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'strategy', 'name']);
const ERROR_LEVEL = 50;

export class LogDigest implements DestinationStream {
  private readonly entries = new Map<string, Entry>();

  /** One pino JSON line. */
  write(line: string): void {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    const strategy = typeof record['strategy'] === 'string' ? record['strategy'] : undefined;
    const message = typeof record['msg'] === 'string' ? record['msg'] : '';
    const key = `${strategy ?? ''}\u0000${message}`;
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      entry.count += 1;
      return;
    }
    const fields = Object.fromEntries(Object.entries(record).filter(([name]) => !PINO_FIELDS.has(name)));
    this.entries.set(key, { strategy, message, error: Number(record['level']) >= ERROR_LEVEL, fields, count: 1 });
  }

  /** "warning: dca: amount too small (222 times; first: symbol=SPX.US close=1455.22)", in order of first appearance. */
  lines(limit = 10): string[] {
    const entries = [...this.entries.values()];
    const lines = entries.slice(0, limit).map((entry) => {
      const fields = Object.entries(entry.fields).map(
        ([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
      );
      const times = entry.count === 1 ? '' : `${entry.count} times`;
      const first = fields.length === 0 ? '' : `${entry.count === 1 ? '' : 'first: '}${fields.join(' ')}`;
      const detail = [times, first].filter((part) => part !== '').join('; ');
      return `${entry.error ? 'error' : 'warning'}: ${entry.strategy === undefined ? '' : `${entry.strategy}: `}${entry.message}${detail === '' ? '' : ` (${detail})`}`;
    });
    if (entries.length > limit)
      lines.push(`warning: … and ${entries.length - limit} more kinds of warning (--verbose logs every one as it happens)`);
    return lines;
  }
}
