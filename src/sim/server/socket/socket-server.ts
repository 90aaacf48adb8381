// The quote and trade WebSockets on the simulator's HTTP port (paths ending /quote and /trade): binary
// packets only, auth with a one-time password (cmd 2), session resume (cmd 3), heartbeat echo (cmd 1),
// ws-level pings on the clock, and Close (cmd 0) with a code and reason before any close frame. The server
// never sends text frames, unsolicited pongs or empty close frames: the official SDK drops a link on those.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { sleep } from '../../../clock/sleep.js';
import type { Clock } from '../../../domain/clock.js';
import { InvalidInputError } from '../../../domain/errors.js';
import type { Logger } from '../../../log/logger.js';
import { decodePacket, encodePacket, RESPONSE_STATUS, type RequestPacket } from '../../../openapi/socket/codec.js';
import { CONTROL_COMMANDS } from '../../../openapi/socket/commands.js';
import { PacketDecodeError } from '../../../openapi/socket/errors.js';
import { messages } from '../../../openapi/socket/messages.js';
import type { FaultInjector } from '../../venue/index.js';
import { QUOTE_CODES, SocketFailure, type CommandReply, type Link, type LinkKind, type LinkService } from './link.js';
import { PushChannel } from './push-channel.js';
import type { SocketSessions } from './sessions.js';

export interface SocketServerOptions {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly faults: FaultInjector;
  readonly sessions: () => SocketSessions;
  readonly services: Readonly<Record<LinkKind, LinkService>>;
  /** Interval of ws-level pings; the SDK drops a link after 120 s without one. */
  readonly pingIntervalMs: number;
}

export interface ConnectionInfo {
  readonly kind: LinkKind;
  readonly authenticated: boolean;
  /** Authenticated by resuming an earlier session (cmd 3). */
  readonly resumed: boolean;
  /** Quote subscriptions held. */
  readonly symbols: readonly string[];
  /** Trade topics held. */
  readonly topics: readonly string[];
  readonly pushesSent: number;
}

/** Bodies above this go out gzip-compressed, as the service does with large answers. */
const GZIP_ABOVE = 4096;
const CLOSE_GRACE_MS = 1000;

export class SocketServer {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly links = new Set<Link>();
  private nextId = 1;

  constructor(private readonly options: SocketServerOptions) {}

  /** Takes over an HTTP upgrade on a quote or trade path; other paths get a 404. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(request.url ?? '/', 'http://simulator').pathname.replace(/\/+$/, '');
    const kind: LinkKind | undefined = path.endsWith('/quote') ? 'quote' : path.endsWith('/trade') ? 'trade' : undefined;
    if (kind === undefined) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws, kind));
  }

  /** Authenticated connections still open. */
  get online(): number {
    let count = 0;
    for (const link of this.links) if (link.session !== undefined && link.socket.readyState === link.socket.OPEN) count++;
    return count;
  }

  /** The connections open now, for diagnostics and tests. */
  connections(): ConnectionInfo[] {
    return [...this.links].map((link) => ({
      kind: link.kind,
      authenticated: link.session !== undefined,
      resumed: link.resumed,
      symbols: [...link.subscriptions.keys()],
      topics: [...link.topics],
      pushesSent: link.channel.pushesSent,
    }));
  }

  linksOf(kind: LinkKind): Link[] {
    return [...this.links].filter((link) => link.kind === kind && link.session !== undefined);
  }

  /** Sends Close (code 2, server shutdown) on every link and waits briefly for the clients to close. */
  async close(): Promise<void> {
    const closing = [...this.links].map((link) => {
      const closed = new Promise<void>((resolve) => link.socket.once('close', () => resolve()));
      this.closeLink(link, 2, 'server shutdown');
      return closed;
    });
    // The grace timer is cancelled once every link closed: it must not keep the process alive on its own.
    const grace = new AbortController();
    await Promise.race([Promise.all(closing), sleep(this.options.clock, CLOSE_GRACE_MS, grace.signal).catch(() => undefined)]);
    grace.abort();
    for (const link of this.links) link.socket.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  /** Cmd 0 Close with a code (0 heartbeat timeout … 6 duplicate connection) and reason, then the close frame. */
  closeLink(link: Link, code: number, reason: string): void {
    if (link.socket.readyState !== link.socket.OPEN) return;
    link.socket.send(encodePacket({ type: 'push', cmd: CONTROL_COMMANDS.close, body: messages.close.encode({ code, reason }) }));
    link.socket.close(1000, reason);
  }

  private accept(socket: WebSocket, kind: LinkKind): void {
    const { clock, faults } = this.options;
    const link: Link = {
      id: this.nextId++,
      kind,
      socket,
      channel: new PushChannel(socket, faults, clock, () => cut(socket)),
      session: undefined,
      resumed: false,
      subscriptions: new Map(),
      topics: new Set(),
    };
    this.links.add(link);
    const pinger = clock.setInterval(() => {
      if (socket.readyState === socket.OPEN) socket.ping();
    }, this.options.pingIntervalMs);
    socket.on('message', (data, isBinary) => this.receive(link, data as Buffer, isBinary));
    socket.on('error', (error) => this.options.logger.debug({ link: link.id, error: error.message }, 'socket error'));
    socket.on('close', () => {
      pinger.cancel();
      this.links.delete(link);
      this.options.services[kind].closed(link);
    });
    this.options.logger.debug({ link: link.id, kind }, 'connection opened');
  }

  private receive(link: Link, data: Buffer, isBinary: boolean): void {
    if (!isBinary) {
      this.closeLink(link, 3, 'text frames are not part of the protocol');
      return;
    }
    let packet: ReturnType<typeof decodePacket>;
    try {
      packet = decodePacket(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    } catch (error) {
      this.closeLink(link, 3, `unpack error: ${(error as Error).message}`);
      return;
    }
    // Responses (to our heartbeats) and stray pushes need no answer.
    if (packet.type === 'request') void this.answer(link, packet);
  }

  private async answer(link: Link, packet: RequestPacket): Promise<void> {
    let status: number = RESPONSE_STATUS.ok;
    let body: Uint8Array;
    let after: (() => void) | undefined;
    try {
      const reply = this.dispatch(link, packet);
      if (reply instanceof Uint8Array) body = reply;
      else ({ body, after } = reply);
    } catch (error) {
      const failure = asFailure(error);
      if (failure === undefined) this.options.logger.error({ cmd: packet.cmd, error: (error as Error).message }, 'command failed');
      status = failure?.status ?? RESPONSE_STATUS.serverError;
      body = messages.error.encode({ code: failure?.code ?? QUOTE_CODES.serverError, msg: failure?.message ?? 'server error' });
    }
    const latency = this.options.faults.latencyMs();
    if (latency > 0) await sleep(this.options.clock, latency);
    if (link.socket.readyState !== link.socket.OPEN) return;
    link.socket.send(
      encodePacket({ type: 'response', cmd: packet.cmd, requestId: packet.requestId, status, body }, { gzip: body.length > GZIP_ABOVE }),
    );
    after?.();
  }

  private dispatch(link: Link, packet: RequestPacket): CommandReply {
    const sessions = this.options.sessions();
    switch (packet.cmd) {
      case CONTROL_COMMANDS.heartbeat:
        return packet.body;
      case CONTROL_COMMANDS.auth: {
        const { token } = messages.authRequest.decode(packet.body);
        const redeemed = sessions.redeem(token);
        if (redeemed !== 'ok')
          throw new SocketFailure(
            RESPONSE_STATUS.unauthenticated,
            401004,
            `one-time token ${redeemed === 'expired' ? 'expired' : 'invalid or already used'}`,
          );
        if (this.online >= sessions.settings.connectionLimit) {
          throw new SocketFailure(
            RESPONSE_STATUS.unauthenticated,
            401005,
            `connection limit of ${sessions.settings.connectionLimit} reached`,
          );
        }
        link.session = sessions.open();
        return messages.authResponse.encode({ ...link.session, limit: sessions.settings.connectionLimit, online: this.online });
      }
      case CONTROL_COMMANDS.reconnect: {
        const { sessionId } = messages.reconnectRequest.decode(packet.body);
        const session = sessions.resume(sessionId);
        if (session === undefined)
          throw new SocketFailure(
            RESPONSE_STATUS.unauthenticated,
            401003,
            'session expired or unknown: authenticate with a new one-time token',
          );
        link.session = session;
        link.resumed = true;
        return messages.reconnectResponse.encode({ ...session, limit: sessions.settings.connectionLimit, online: this.online });
      }
      default: {
        if (link.session === undefined) throw new SocketFailure(RESPONSE_STATUS.unauthenticated, 401004, 'not authenticated');
        const handler = this.options.services[link.kind].handlers.get(packet.cmd);
        if (handler === undefined)
          throw new SocketFailure(
            RESPONSE_STATUS.badRequest,
            QUOTE_CODES.invalidRequest,
            `command ${packet.cmd} is not served on the ${link.kind} connection`,
          );
        return handler(packet.body, link);
      }
    }
  }
}

/** A refusal for the client: ours, or a request body that does not decode or names a bad value. */
function asFailure(error: unknown): SocketFailure | undefined {
  if (error instanceof SocketFailure) return error;
  if (error instanceof PacketDecodeError || error instanceof InvalidInputError)
    return new SocketFailure(RESPONSE_STATUS.badRequest, QUOTE_CODES.invalidRequest, error.message);
  return undefined;
}

/**
 * Drops a link as a network failure would: no Close packet, no close frame. The TCP stream is ended (FIN)
 * rather than reset, so what was already sent still arrives; a reset would make the client's kernel throw
 * away unread pushes whenever the server has unread frames (pongs) from it.
 */
function cut(socket: WebSocket): void {
  const stream = (socket as unknown as { _socket?: Duplex })._socket;
  if (stream === undefined) socket.terminate();
  else stream.end();
}
