// A real HTTP server on 127.0.0.1 that receives webhook calls: answers with scripted status codes (then 200),
// or never answers (a hung webhook), and keeps every JSON body it was sent.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export class WebhookServer {
  readonly received: unknown[] = [];
  /** Status codes for the next requests, in order; 200 once they run out. */
  readonly script: number[] = [];
  hang = false;
  /** Requests that arrived, whatever the answer. */
  attempts = 0;
  private readonly waiters: { count: number; resolve: () => void }[] = [];
  private readonly hung: ServerResponse[] = [];
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves once `count` requests (of any outcome) have arrived. */
  requests(count: number): Promise<void> {
    if (this.attempts >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  async close(): Promise<void> {
    for (const response of this.hung) response.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    this.attempts++;
    const status = this.hang ? undefined : (this.script.shift() ?? 200);
    if (status === 200) this.received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    if (status === undefined) this.hung.push(response);
    else response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'nope');
    for (const waiter of this.waiters.filter((entry) => this.attempts >= entry.count)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }
}
