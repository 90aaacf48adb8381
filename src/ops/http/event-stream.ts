// Live updates to open pages as server-sent events over fetch (the page reads the stream itself, so its
// token travels in a header, never in a URL): the whole state when a page connects, then each changed
// section, batched (the first change goes out on the next turn, later ones at most every `gapMs`), and
// each new log line. A comment line every 15 s keeps proxies from closing an idle stream; a page that
// stops reading is dropped rather than buffered without end.
import type { ServerResponse } from 'node:http';
import type { Subscription } from 'rxjs';
import type { Clock, TimerHandle } from '../../domain/clock.js';
import type { OpsHub } from '../hub.js';
import type { LogTail } from '../log-tail.js';
import type { Section } from '../view.js';

const KEEPALIVE_MS = 15_000;
/** A page that reads slower than this much piles up is dropped (it reconnects and gets the whole state). */
const BACKLOG_LIMIT = 4 * 1024 * 1024;

export class EventStreams {
  private readonly clients = new Set<ServerResponse>();
  private readonly pending = new Set<Section>();
  private readonly subscriptions: Subscription[] = [];
  private flushQueued = false;
  private gapTimer: TimerHandle | undefined;
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private readonly keepalive: TimerHandle;

  constructor(
    private readonly hub: OpsHub,
    private readonly clock: Clock,
    private readonly gapMs: number,
    logs: LogTail | undefined,
  ) {
    this.subscriptions.push(hub.changes.subscribe((section) => this.changed(section)));
    if (logs !== undefined) this.subscriptions.push(logs.lines.subscribe((line) => this.broadcast('log', line)));
    this.keepalive = clock.setInterval(() => {
      for (const client of this.clients) client.write(': keepalive\n\n');
    }, KEEPALIVE_MS);
  }

  get size(): number {
    return this.clients.size;
  }

  open(response: ServerResponse): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    response.write(message('state', this.hub.state()));
    this.clients.add(response);
    response.on('close', () => this.clients.delete(response));
  }

  close(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
    this.keepalive.cancel();
    this.gapTimer?.cancel();
    for (const client of this.clients) client.end();
    this.clients.clear();
  }

  private changed(section: Section): void {
    if (section === 'logs') return;
    this.pending.add(section);
    if (this.flushQueued || this.gapTimer !== undefined) return;
    const wait = this.lastFlushAt + this.gapMs - this.clock.now();
    if (wait > 0) {
      this.gapTimer = this.clock.setTimeout(() => {
        this.gapTimer = undefined;
        this.flush();
      }, wait);
      return;
    }
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      this.flush();
    });
  }

  private flush(): void {
    this.lastFlushAt = this.clock.now();
    const sections = [...this.pending];
    this.pending.clear();
    if (this.clients.size === 0) return;
    for (const name of sections) this.broadcast('section', { name, value: this.hub.section(name) });
  }

  private broadcast(event: string, data: unknown): void {
    if (this.clients.size === 0) return;
    const text = message(event, data);
    for (const client of this.clients) {
      if (client.writableLength > BACKLOG_LIMIT) {
        this.clients.delete(client);
        client.destroy();
      } else client.write(text);
    }
  }
}

function message(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
