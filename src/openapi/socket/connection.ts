// One long connection (quote or trade): one-time token, auth, request/response correlation with
// per-request timeouts, heartbeats, dead-link detection, and reconnect with backoff that resumes the session
// (cmd 3) or authenticates anew (cmd 2) and then lets the owner restore its subscriptions.
import { BehaviorSubject, Subject, type Observable } from 'rxjs';
import WebSocket from 'ws';
import { sleep } from '../../clock/sleep.js';
import type { Clock, TimerHandle } from '../../domain/clock.js';
import { silentLogger, type Logger } from '../../log/logger.js';
import { decodePacket, encodePacket, RESPONSE_STATUS, type Packet, type PushPacket } from './codec.js';
import { closeCodeName, CONTROL_COMMANDS } from './commands.js';
import type { ConnectionState, OtpProvider } from './connection-state.js';
import { ConnectionLostError, ConnectionRefusedError, PacketDecodeError, SocketResponseError, SocketTimeoutError } from './errors.js';
import { messages, type AuthResponse, type MessageCodec } from './messages.js';

export interface ConnectionOptions {
  /** The WebSocket base URL (LONGPORT_QUOTE_WS_URL or LONGPORT_TRADE_WS_URL). */
  readonly url: string;
  readonly otp: OtpProvider;
  readonly clock: Clock;
  readonly logger?: Logger;
  /** Sent with auth and reconnect (cmd 2 / cmd 3). */
  readonly metadata?: Readonly<Record<string, string>>;
  /** Drop the link when nothing (ping, heartbeat, packet) arrived for this long; 120 s like the SDK. */
  readonly keepaliveMs?: number;
  readonly requestTimeoutMs?: number;
  /** Opening the socket plus authenticating must finish within this. */
  readonly connectTimeoutMs?: number;
  /** First wait after a drop (doubles per failed attempt up to maxReconnectDelayMs); 2 s like the SDK. */
  readonly reconnectDelayMs?: number;
  readonly maxReconnectDelayMs?: number;
  /** Runs after every (re)authentication, before the state turns online: restore subscriptions here. */
  readonly onAuthenticated?: (reconnected: boolean) => Promise<void>;
}

interface Pending {
  readonly cmd: number;
  readonly timeoutMs: number;
  readonly body: Uint8Array;
  readonly resolve: (body: Uint8Array) => void;
  readonly reject: (error: Error) => void;
  readonly timer: TimerHandle;
  sent: boolean;
}

interface Link {
  readonly socket: WebSocket;
  /** Authenticated: requests may flow. */
  ready: boolean;
  /** Restored and online: a drop from here on starts the reconnect loop. */
  established: boolean;
  keepalive: TimerHandle | undefined;
  serverClose: { readonly code: number; readonly reason: string } | undefined;
}

/** Server close codes after which reconnecting cannot help. */
const FATAL_CLOSE_CODES = new Set([4, 6]);
const SESSION_EXPIRED = 5;

export class SocketConnection {
  private readonly stateSubject = new BehaviorSubject<ConnectionState>({ status: 'connecting' });
  private readonly pushSubject = new Subject<PushPacket>();
  private readonly pending = new Map<number, Pending>();
  private readonly logger: Logger;
  private readonly stopping = new AbortController();
  private link: Link | undefined;
  private session: { readonly id: string; readonly expires: number } | undefined;
  private nextRequestId = 1;
  private heartbeats = 0;

  /** Connection state changes; replays the current state to new subscribers. */
  readonly state$: Observable<ConnectionState> = this.stateSubject.asObservable();
  /** Every push packet (quote 101…104, trade 18), across reconnects. Completes on close. */
  readonly pushes$: Observable<PushPacket> = this.pushSubject.asObservable();

  constructor(private readonly options: ConnectionOptions) {
    this.logger = options.logger ?? silentLogger;
  }

  get state(): ConnectionState {
    return this.stateSubject.value;
  }

  /** Connects and authenticates; rejects (and the state turns closed) when the first attempt fails. */
  async open(): Promise<void> {
    this.stateSubject.next({ status: 'connecting' });
    try {
      await this.establish(false);
    } catch (error) {
      this.dropLink();
      this.finish(`could not connect: ${(error as Error).message}`);
      throw error;
    }
  }

  /** Sends one request and resolves with the response body; waits for the link while reconnecting. */
  request(cmd: number, body: Uint8Array, timeoutMs = this.options.requestTimeoutMs ?? 30_000): Promise<Uint8Array> {
    if (this.state.status === 'closed') return Promise.reject(new ConnectionLostError(this.state.reason));
    return new Promise((resolve, reject) => {
      const requestId = this.takeRequestId();
      const timer = this.options.clock.setTimeout(() => {
        this.pending.delete(requestId);
        reject(new SocketTimeoutError(cmd, timeoutMs));
      }, timeoutMs);
      const pending: Pending = { cmd, timeoutMs, body, resolve, reject, timer, sent: false };
      this.pending.set(requestId, pending);
      if (this.link?.ready) this.transmit(requestId, pending);
    });
  }

  /** A typed request: encodes `value` with one codec and decodes the answer with another. */
  async call<Req, Res>(
    cmd: number,
    requestCodec: MessageCodec<Req>,
    value: Req,
    responseCodec: MessageCodec<Res>,
    timeoutMs?: number,
  ): Promise<Res> {
    return responseCodec.decode(await this.request(cmd, requestCodec.encode(value), timeoutMs));
  }

  /**
   * A heartbeat (cmd 1) the server echoes. Frames are handled in the order they arrive, so once it resolves
   * every push the server sent before answering has been handled. Resolves at once unless online.
   */
  async heartbeat(timeoutMs?: number): Promise<void> {
    if (this.state.status !== 'online') return;
    const body = messages.heartbeat.encode({
      timestamp: this.options.clock.now(),
      heartbeatId: (this.heartbeats = (this.heartbeats + 1) % 0x7fff_ffff),
    });
    await this.request(CONTROL_COMMANDS.heartbeat, body, timeoutMs);
  }

  async close(): Promise<void> {
    if (this.state.status === 'closed') return;
    this.stopping.abort(new ConnectionLostError('closed by the client'));
    const link = this.link;
    this.link = undefined;
    if (link !== undefined) {
      link.keepalive?.cancel();
      await closeSocket(link.socket, this.options.clock);
    }
    this.finish('closed by the client');
  }

  private takeRequestId(): number {
    const id = this.nextRequestId;
    this.nextRequestId = id >= 0xffff_fffe ? 1 : id + 1;
    return id;
  }

  private transmit(requestId: number, pending: Pending): void {
    pending.sent = true;
    this.send({ type: 'request', cmd: pending.cmd, requestId, timeoutMs: pending.timeoutMs, body: pending.body });
  }

  private send(packet: Packet): void {
    this.link?.socket.send(encodePacket(packet));
  }

  /** Opens a socket, authenticates (resuming the session when it can) and runs the owner's restore hook. */
  private async establish(reconnected: boolean): Promise<void> {
    const link = await this.openSocket();
    this.link = link;
    const deadline = this.options.connectTimeoutMs ?? 30_000;
    const session = this.session !== undefined && this.session.expires > this.options.clock.now() ? this.session : undefined;
    let auth: AuthResponse | undefined;
    if (session !== undefined) {
      auth = await this.linkCall(
        link,
        CONTROL_COMMANDS.reconnect,
        messages.reconnectRequest.encode({ sessionId: session.id, metadata: this.metadata() }),
        deadline,
      )
        .then((body) => messages.reconnectResponse.decode(body))
        .catch((error: Error) => {
          if (error instanceof SocketResponseError) return undefined;
          throw error;
        });
      if (auth === undefined) this.logger.info({ connection: this.options.url }, 'session not resumed; authenticating anew');
    }
    if (auth === undefined) {
      const token = await this.options.otp();
      if (token.online >= token.limit) {
        throw new ConnectionRefusedError(`the account already holds ${token.online} of ${token.limit} allowed connections`);
      }
      auth = await this.linkCall(
        link,
        CONTROL_COMMANDS.auth,
        messages.authRequest.encode({ token: token.otp, metadata: this.metadata() }),
        deadline,
      )
        .then((body) => messages.authResponse.decode(body))
        .catch((error: Error) => {
          throw error instanceof SocketResponseError ? new ConnectionRefusedError(`authentication failed: ${error.message}`) : error;
        });
    }
    this.session = { id: auth.sessionId || session?.id || '', expires: auth.expires };
    link.ready = true;
    await this.options.onAuthenticated?.(reconnected);
    if (this.link !== link) throw new ConnectionLostError('link dropped while restoring');
    link.established = true;
    for (const [requestId, pending] of this.pending) if (!pending.sent) this.transmit(requestId, pending);
    this.stateSubject.next({ status: 'online', reconnected });
  }

  /** A request on a link that is not ready yet (auth, reconnect): bypasses the queue of user requests. */
  private linkCall(link: Link, cmd: number, body: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
    return new Promise((resolve, reject) => {
      const requestId = this.takeRequestId();
      const timer = this.options.clock.setTimeout(() => {
        this.pending.delete(requestId);
        reject(new SocketTimeoutError(cmd, timeoutMs));
      }, timeoutMs);
      this.pending.set(requestId, { cmd, timeoutMs, body, resolve, reject, timer, sent: true });
      link.socket.send(encodePacket({ type: 'request', cmd, requestId, timeoutMs, body }));
    });
  }

  private metadata(): Record<string, string> {
    return { ...(this.options.metadata ?? {}) };
  }

  private openSocket(): Promise<Link> {
    const url = new URL(this.options.url);
    url.searchParams.set('version', '1');
    url.searchParams.set('codec', '1');
    url.searchParams.set('platform', '9');
    const socket = new WebSocket(url);
    socket.binaryType = 'nodebuffer';
    const link: Link = { socket, ready: false, established: false, keepalive: undefined, serverClose: undefined };
    const stopping = this.stopping.signal;
    return new Promise((resolve, reject) => {
      const timeoutMs = this.options.connectTimeoutMs ?? 30_000;
      const fail = (error: ConnectionLostError): void => {
        timer.cancel();
        stopping.removeEventListener('abort', onStop);
        reject(error);
      };
      const timer = this.options.clock.setTimeout(() => {
        socket.terminate();
        fail(new ConnectionLostError(`no connection to ${this.options.url} within ${timeoutMs} ms`));
      }, timeoutMs);
      // Closed while a (re)connect was still opening its socket: that socket is nobody's, so it goes too.
      const onStop = (): void => {
        socket.terminate();
        fail(new ConnectionLostError('closed by the client'));
      };
      stopping.addEventListener('abort', onStop, { once: true });
      socket.once('open', () => {
        timer.cancel();
        stopping.removeEventListener('abort', onStop);
        this.attach(link);
        resolve(link);
      });
      socket.once('error', (error) => fail(new ConnectionLostError(`cannot reach ${this.options.url}: ${error.message}`)));
    });
  }

  private attach(link: Link): void {
    const socket = link.socket;
    this.touch(link);
    socket.on('ping', () => this.touch(link));
    socket.on('message', (data, isBinary) => {
      this.touch(link);
      if (!isBinary) {
        this.logger.warn({ connection: this.options.url }, 'ignoring a text frame');
        return;
      }
      this.handleFrame(link, toBytes(data));
    });
    socket.on('error', (error) => this.logger.warn({ connection: this.options.url, error: error.message }, 'socket error'));
    socket.on('close', (code, reason) => {
      const serverClose = link.serverClose;
      const why =
        serverClose !== undefined
          ? `server closed the connection (${closeCodeName(serverClose.code)}${serverClose.reason === '' ? '' : `: ${serverClose.reason}`})`
          : `socket closed (${code}${reason.length > 0 ? ` ${reason.toString()}` : ''})`;
      this.linkDown(link, why);
    });
  }

  /** Any frame from the server proves the link alive; silence for the keepalive window kills it. */
  private touch(link: Link): void {
    link.keepalive?.cancel();
    const windowMs = this.options.keepaliveMs ?? 120_000;
    link.keepalive = this.options.clock.setTimeout(() => {
      this.logger.warn({ connection: this.options.url, windowMs }, 'no ping from the server: dropping the link');
      link.socket.terminate();
      this.linkDown(link, `no ping from the server for ${windowMs} ms`);
    }, windowMs);
  }

  private handleFrame(link: Link, frame: Uint8Array): void {
    let packet: Packet;
    try {
      packet = decodePacket(frame);
    } catch (error) {
      this.logger.warn(
        { connection: this.options.url, error: (error as Error).message, bytes: frame.length },
        'dropping a malformed frame',
      );
      return;
    }
    if (packet.type === 'response') this.settle(packet.requestId, packet.cmd, packet.status, packet.body);
    else if (packet.type === 'request') this.answerServerRequest(link, packet.cmd, packet.requestId, packet.body);
    else if (packet.cmd === CONTROL_COMMANDS.close) this.onServerClose(link, packet.body);
    else if (packet.cmd !== CONTROL_COMMANDS.heartbeat) this.pushSubject.next(packet);
  }

  private settle(requestId: number, cmd: number, status: number, body: Uint8Array): void {
    const pending = this.pending.get(requestId);
    if (pending === undefined) {
      this.logger.debug({ requestId, cmd }, 'response to no pending request (timed out?)');
      return;
    }
    this.pending.delete(requestId);
    pending.timer.cancel();
    if (status === RESPONSE_STATUS.ok) {
      pending.resolve(body);
      return;
    }
    let error: { code: number | undefined; msg: string } = { code: undefined, msg: '' };
    try {
      if (body.length > 0) error = messages.error.decode(body);
    } catch (decodeError) {
      if (!(decodeError instanceof PacketDecodeError)) throw decodeError;
    }
    pending.reject(new SocketResponseError(pending.cmd, status, error.code, error.msg));
  }

  /** The server's heartbeat request (cmd 1) is answered with its own body; other requests are refused. */
  private answerServerRequest(link: Link, cmd: number, requestId: number, body: Uint8Array): void {
    const ok = cmd === CONTROL_COMMANDS.heartbeat;
    const reply = ok ? body : messages.error.encode({ code: 301600, msg: `client does not serve command ${cmd}` });
    link.socket.send(
      encodePacket({ type: 'response', cmd, requestId, status: ok ? RESPONSE_STATUS.ok : RESPONSE_STATUS.badRequest, body: reply }),
    );
  }

  private onServerClose(link: Link, body: Uint8Array): void {
    try {
      link.serverClose = messages.close.decode(body);
    } catch {
      link.serverClose = { code: 1, reason: 'unreadable close message' };
    }
    this.logger.warn(
      { connection: this.options.url, code: link.serverClose.code, reason: link.serverClose.reason },
      'server closed the connection',
    );
    if (link.serverClose.code === SESSION_EXPIRED) this.session = undefined;
    link.socket.close();
  }

  private linkDown(link: Link, reason: string): void {
    link.keepalive?.cancel();
    if (this.link !== link) return;
    this.link = undefined;
    for (const [requestId, pending] of this.pending) {
      if (!pending.sent) continue;
      this.pending.delete(requestId);
      pending.timer.cancel();
      pending.reject(new ConnectionLostError(reason));
    }
    if (this.stopping.signal.aborted || !link.established) return;
    const serverCode = link.serverClose?.code;
    if (serverCode !== undefined && FATAL_CLOSE_CODES.has(serverCode)) {
      this.finish(reason, serverCode);
      return;
    }
    this.logger.warn({ connection: this.options.url, reason }, 'connection lost; reconnecting');
    void this.reconnect(reason);
  }

  private async reconnect(reason: string): Promise<void> {
    const base = this.options.reconnectDelayMs ?? 2_000;
    const max = this.options.maxReconnectDelayMs ?? 60_000;
    let lastReason = reason;
    for (let attempt = 1; !this.stopping.signal.aborted; attempt++) {
      const retryInMs = Math.min(max, base * 2 ** (attempt - 1));
      this.stateSubject.next({ status: 'reconnecting', attempt, reason: lastReason, retryInMs });
      try {
        await sleep(this.options.clock, retryInMs, this.stopping.signal);
        await this.establish(true);
        return;
      } catch (error) {
        if (this.stopping.signal.aborted) return;
        this.dropLink();
        lastReason = (error as Error).message;
        this.logger.warn({ connection: this.options.url, attempt, error: lastReason }, 'reconnect attempt failed');
      }
    }
  }

  private dropLink(): void {
    const link = this.link;
    this.link = undefined;
    if (link === undefined) return;
    link.keepalive?.cancel();
    link.socket.terminate();
  }

  private finish(reason: string, closeCode?: number): void {
    if (!this.stopping.signal.aborted) this.stopping.abort(new ConnectionLostError(reason));
    for (const pending of this.pending.values()) {
      pending.timer.cancel();
      pending.reject(new ConnectionLostError(reason));
    }
    this.pending.clear();
    this.stateSubject.next({ status: 'closed', reason, ...(closeCode === undefined ? {} : { closeCode }) });
    this.stateSubject.complete();
    this.pushSubject.complete();
  }
}

function toBytes(data: WebSocket.RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  return data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** A polite close, cut short after a second when the server does not answer the close frame. */
function closeSocket(socket: WebSocket, clock: Clock): Promise<void> {
  if (socket.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = clock.setTimeout(() => socket.terminate(), 1_000);
    socket.once('close', () => {
      timer.cancel();
      resolve();
    });
    if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
    else socket.close(1000);
  });
}
