// A real WebSocket server on 127.0.0.1 (port 0) speaking the binary protocol with our codec, for tests:
// authenticates, resumes sessions, records every request, answers by command handlers, and pushes.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  decodePacket,
  encodePacket,
  RESPONSE_STATUS,
  type EncodeOptions,
  type RequestPacket,
  type ResponsePacket,
} from '../../../src/openapi/socket/codec.js';
import { CONTROL_COMMANDS } from '../../../src/openapi/socket/commands.js';
import { messages } from '../../../src/openapi/socket/messages.js';

export interface ServerLink {
  readonly socket: WebSocket;
  readonly url: string;
  sessionId: string | undefined;
}

export interface ReceivedRequest {
  readonly link: ServerLink;
  readonly packet: RequestPacket;
}

/** What a handler answers: a body (status 0), an error status, or nothing (the request then times out). */
export type Reply =
  | { readonly body: Uint8Array; readonly gzip?: boolean }
  | { readonly status: number; readonly code: number; readonly msg: string }
  | 'ignore';
export type Handler = (request: RequestPacket, link: ServerLink) => Reply | Promise<Reply>;

export interface TestServerOptions {
  /** One-time tokens the server accepts for cmd 2; any non-empty token when omitted. */
  readonly acceptOtp?: (otp: string) => boolean;
  /** Session lifetime reported in AuthResponse.expires, relative to `now()`. */
  readonly sessionMs?: number;
  readonly now?: () => number;
}

export class SocketTestServer {
  readonly requests: ReceivedRequest[] = [];
  /** Responses clients sent to the server's own requests (heartbeats). */
  readonly responses: ResponsePacket[] = [];
  readonly links: ServerLink[] = [];
  readonly sessions = new Set<string>();
  private readonly handlers = new Map<number, Handler>();
  private readonly waiters: { predicate: () => boolean; resolve: () => void }[] = [];
  private sessionCount = 0;

  private constructor(
    private readonly server: WebSocketServer,
    private readonly options: TestServerOptions,
  ) {
    server.on('connection', (socket, request) => this.accept(socket, request.url ?? ''));
  }

  static async start(options: TestServerOptions = {}): Promise<SocketTestServer> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(server, 'listening');
    return new SocketTestServer(server, options);
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/v2`;
  }

  /** Links that completed auth or reconnect and are still open. */
  get openLinks(): ServerLink[] {
    return this.links.filter((link) => link.sessionId !== undefined && link.socket.readyState === link.socket.OPEN);
  }

  handle(cmd: number, handler: Handler): this {
    this.handlers.set(cmd, handler);
    return this;
  }

  requestsFor(cmd: number): ReceivedRequest[] {
    return this.requests.filter((request) => request.packet.cmd === cmd);
  }

  push(cmd: number, body: Uint8Array, options: EncodeOptions = {}): void {
    for (const link of this.openLinks) link.socket.send(encodePacket({ type: 'push', cmd, body }, options));
  }

  sendRaw(bytes: Uint8Array | string): void {
    for (const link of this.openLinks) link.socket.send(bytes);
  }

  /** Sends a request packet to every client (the service's cmd 1 heartbeat). */
  sendRequest(cmd: number, requestId: number, body: Uint8Array): void {
    for (const link of this.openLinks) link.socket.send(encodePacket({ type: 'request', cmd, requestId, timeoutMs: 5_000, body }));
  }

  ping(): void {
    for (const link of this.openLinks) link.socket.ping();
  }

  /** Sends cmd 0 Close and closes the socket, as the service does. */
  closeWith(code: number, reason: string): void {
    for (const link of this.openLinks) {
      link.socket.send(encodePacket({ type: 'push', cmd: CONTROL_COMMANDS.close, body: messages.close.encode({ code, reason }) }));
      link.socket.close(1000);
    }
  }

  /** Cuts every link without a close handshake, like a network failure. */
  dropAll(): void {
    for (const link of this.links) link.socket.terminate();
  }

  /** Resolves once `predicate` holds (re-checked after every received request or connection). */
  until(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      // A real-time guard so a broken test fails instead of hanging; never part of the behaviour tested.
      const guard = setTimeout(() => reject(new Error(`test server: condition not met within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({ predicate, resolve: () => (clearTimeout(guard), resolve()) });
    });
  }

  async stop(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.predicate()) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }

  private accept(socket: WebSocket, url: string): void {
    const link: ServerLink = { socket, url, sessionId: undefined };
    this.links.push(link);
    socket.on('message', (data, isBinary) => {
      if (!isBinary) return;
      let packet: ReturnType<typeof decodePacket>;
      try {
        packet = decodePacket(new Uint8Array(data as Buffer));
      } catch {
        return;
      }
      if (packet.type === 'response') {
        this.responses.push(packet);
        this.notify();
        return;
      }
      if (packet.type !== 'request') return;
      this.requests.push({ link, packet });
      const answering = this.answer(link, packet);
      this.notify();
      void answering.finally(() => this.notify());
    });
    socket.on('close', () => this.notify());
    this.notify();
  }

  private async answer(link: ServerLink, packet: RequestPacket): Promise<void> {
    const reply = await this.reply(link, packet);
    if (reply === 'ignore' || link.socket.readyState !== link.socket.OPEN) return;
    const respond = (status: number, body: Uint8Array, gzip = false): void =>
      link.socket.send(encodePacket({ type: 'response', cmd: packet.cmd, requestId: packet.requestId, status, body }, { gzip }));
    if ('status' in reply) respond(reply.status, messages.error.encode({ code: reply.code, msg: reply.msg }));
    else respond(RESPONSE_STATUS.ok, reply.body, reply.gzip);
  }

  private reply(link: ServerLink, packet: RequestPacket): Reply | Promise<Reply> {
    const custom = this.handlers.get(packet.cmd);
    if (custom !== undefined) return custom(packet, link);
    if (packet.cmd === CONTROL_COMMANDS.auth) return this.authenticate(link, messages.authRequest.decode(packet.body).token);
    if (packet.cmd === CONTROL_COMMANDS.reconnect) {
      const { sessionId } = messages.reconnectRequest.decode(packet.body);
      if (!this.sessions.has(sessionId)) return { status: RESPONSE_STATUS.unauthenticated, code: 401, msg: 'unknown session' };
      link.sessionId = sessionId;
      return { body: messages.reconnectResponse.encode(this.authBody(sessionId)) };
    }
    if (link.sessionId === undefined) return { status: RESPONSE_STATUS.unauthenticated, code: 401, msg: 'not authenticated' };
    return { status: RESPONSE_STATUS.badRequest, code: 301600, msg: `no handler for command ${packet.cmd}` };
  }

  private authenticate(link: ServerLink, token: string): Reply {
    const accept = this.options.acceptOtp ?? ((otp: string) => otp !== '');
    if (!accept(token)) return { status: RESPONSE_STATUS.unauthenticated, code: 401004, msg: 'token invalid' };
    const sessionId = `session-${++this.sessionCount}`;
    this.sessions.add(sessionId);
    link.sessionId = sessionId;
    return { body: messages.authResponse.encode(this.authBody(sessionId)) };
  }

  private authBody(sessionId: string): { sessionId: string; expires: number; limit: number; online: number } {
    const now = this.options.now?.() ?? Date.now();
    return { sessionId, expires: now + (this.options.sessionMs ?? 3_600_000), limit: 1, online: 1 };
  }
}
