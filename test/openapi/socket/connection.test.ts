import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/virtual-clock.js';
import { CONTROL_COMMANDS } from '../../../src/openapi/socket/commands.js';
import { SocketConnection, type ConnectionOptions } from '../../../src/openapi/socket/connection.js';
import type { ConnectionState } from '../../../src/openapi/socket/connection-state.js';
import {
  ConnectionLostError,
  ConnectionRefusedError,
  SocketResponseError,
  SocketTimeoutError,
} from '../../../src/openapi/socket/errors.js';
import { messages } from '../../../src/openapi/socket/messages.js';
import { SocketTestServer } from '../../support/socket/socket-test-server.js';
import { stateOf } from '../../support/socket/wait.js';

const ECHO = 99;
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (body: Uint8Array): string => new TextDecoder().decode(body);

let server: SocketTestServer;
let connection: SocketConnection | undefined;
let clock: VirtualClock;

async function connect(options: Partial<ConnectionOptions> = {}): Promise<SocketConnection> {
  let tokens = 0;
  connection = new SocketConnection({
    url: server.url,
    clock,
    otp: async () => ({ otp: `otp-${++tokens}`, limit: 1, online: 0 }),
    ...options,
  });
  await connection.open();
  return connection;
}

async function start(): Promise<void> {
  clock = new VirtualClock(Date.UTC(2024, 0, 2));
  server = await SocketTestServer.start({ now: () => clock.now() });
  server.handle(ECHO, (request) => ({ body: request.body }));
}

afterEach(async () => {
  await connection?.close();
  connection = undefined;
  await server.stop();
});

describe('SocketConnection', () => {
  it('connects with version, codec and platform, and authenticates with the one-time token and metadata', async () => {
    await start();
    const conn = await connect({ metadata: { need_over_night_quote: 'false' } });
    expect(conn.state).toEqual({ status: 'online', reconnected: false });
    const link = server.links[0]!;
    expect(new URL(link.url, 'ws://x').searchParams.toString()).toBe('version=1&codec=1&platform=9');
    const auth = messages.authRequest.decode(server.requestsFor(CONTROL_COMMANDS.auth)[0]!.packet.body);
    expect(auth).toEqual({ token: 'otp-1', metadata: { need_over_night_quote: 'false' } });
  });

  it('refuses to connect when the account already holds its limit of connections', async () => {
    await start();
    connection = new SocketConnection({ url: server.url, clock, otp: async () => ({ otp: 'x', limit: 1, online: 1 }) });
    await expect(connection.open()).rejects.toThrow(ConnectionRefusedError);
    expect(connection.state.status).toBe('closed');
    expect(server.requestsFor(CONTROL_COMMANDS.auth)).toHaveLength(0);
  });

  it('reports a rejected authentication as a refusal', async () => {
    clock = new VirtualClock(0);
    server = await SocketTestServer.start({ acceptOtp: (otp) => otp === 'good' });
    connection = new SocketConnection({ url: server.url, clock, otp: async () => ({ otp: 'bad', limit: 1, online: 0 }) });
    await expect(connection.open()).rejects.toThrow(/authentication failed.*401004.*token invalid/);
  });

  it('matches responses to requests by request id, whatever their order', async () => {
    await start();
    const release: (() => void)[] = [];
    server.handle(ECHO, (request) => new Promise((resolve) => release.push(() => resolve({ body: request.body }))));
    const conn = await connect();
    const a = conn.request(ECHO, bytes('a'));
    const b = conn.request(ECHO, bytes('b'));
    await server.until(() => release.length === 2);
    release[1]!();
    release[0]!();
    expect([text(await a), text(await b)]).toEqual(['a', 'b']);
  });

  it('fails a request with the service code and message on an error status', async () => {
    await start();
    server.handle(ECHO, () => ({ status: 3, code: 301607, msg: 'too many symbols' }));
    const conn = await connect();
    const failure = await conn.request(ECHO, bytes('x')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SocketResponseError);
    expect(failure).toMatchObject({ status: 3, serviceCode: 301607, message: expect.stringContaining('too many symbols') });
  });

  it('times out a request that gets no answer, on the injected clock, and announces the timeout on the wire', async () => {
    await start();
    server.handle(ECHO, () => 'ignore');
    const conn = await connect();
    const failure = conn.request(ECHO, bytes('x'), 5_000).catch((error: unknown) => error);
    await server.until(() => server.requestsFor(ECHO).length === 1);
    expect(server.requestsFor(ECHO)[0]!.packet.timeoutMs).toBe(5_000);
    await clock.advanceByAsync(4_999);
    await clock.advanceByAsync(1);
    expect(await failure).toBeInstanceOf(SocketTimeoutError);
  });

  it('answers the server heartbeat (cmd 1) with its own body', async () => {
    await start();
    await connect();
    const heartbeat = messages.heartbeat.encode({ timestamp: 1_700_000_000_000, heartbeatId: 42 });
    server.sendRequest(CONTROL_COMMANDS.heartbeat, 77, heartbeat);
    await server.until(() => server.responses.length === 1);
    expect(server.responses[0]).toMatchObject({ cmd: 1, requestId: 77, status: 0 });
    expect(messages.heartbeat.decode(server.responses[0]!.body)).toEqual({ timestamp: 1_700_000_000_000, heartbeatId: 42 });
  });

  it('drops malformed and text frames and keeps working', async () => {
    await start();
    const conn = await connect();
    server.sendRaw(new Uint8Array([0x03, 101, 0, 0, 9, 1]));
    server.sendRaw(new Uint8Array([0x0f, 0xff]));
    server.sendRaw('a text frame');
    expect(text(await conn.request(ECHO, bytes('still here')))).toBe('still here');
    expect(conn.state.status).toBe('online');
  });

  it('resumes the session with cmd 3 after a dropped link, waiting 2 s first, and runs the restore hook', async () => {
    await start();
    const restored: boolean[] = [];
    const conn = await connect({ onAuthenticated: async (reconnected) => void restored.push(reconnected) });
    const states: ConnectionState[] = [];
    conn.state$.subscribe((state) => states.push(state));
    const reconnecting = stateOf(conn.state$, 'reconnecting');
    server.dropAll();
    expect(await reconnecting).toMatchObject({ status: 'reconnecting', attempt: 1, retryInMs: 2_000 });
    await clock.advanceByAsync(1_999);
    expect(server.links).toHaveLength(1);
    const online = stateOf(conn.state$, 'online');
    await clock.advanceByAsync(1);
    expect(await online).toEqual({ status: 'online', reconnected: true });
    const resume = messages.reconnectRequest.decode(server.requestsFor(CONTROL_COMMANDS.reconnect)[0]!.packet.body);
    expect(resume.sessionId).toBe('session-1');
    expect(server.requestsFor(CONTROL_COMMANDS.auth)).toHaveLength(1);
    expect(restored).toEqual([false, true]);
    expect(states.map((state) => state.status)).toEqual(['online', 'reconnecting', 'online']);
  });

  it('closes the socket a reconnect was still opening when the connection is closed, and stays closed', async () => {
    await start();
    const conn = await connect();
    server.dropAll();
    await stateOf(conn.state$, 'reconnecting');
    await clock.advanceByAsync(2_000);
    await conn.close();
    await server.until(() => server.links.length === 2);
    const late = server.links[1]!.socket;
    if (late.readyState !== late.CLOSED) await once(late, 'close');
    await clock.advanceByAsync(120_000);
    expect(conn.state.status).toBe('closed');
    expect(server.links).toHaveLength(2);
  });

  it('authenticates with a new token when the session can no longer be resumed', async () => {
    await start();
    const conn = await connect();
    server.sessions.clear();
    const online = stateOf(conn.state$, 'online');
    server.dropAll();
    await stateOf(conn.state$, 'reconnecting');
    await clock.advanceByAsync(2_000);
    await online;
    await server.until(() => server.requestsFor(CONTROL_COMMANDS.auth).length === 2);
    expect(messages.authRequest.decode(server.requestsFor(CONTROL_COMMANDS.auth)[1]!.packet.body).token).toBe('otp-2');
  });

  it('fails requests in flight when the link drops, and queues new ones until it is back', async () => {
    await start();
    server.handle(ECHO, (request) => (text(request.body) === 'lost' ? 'ignore' : { body: request.body }));
    const conn = await connect();
    const lost = conn.request(ECHO, bytes('lost')).catch((error: unknown) => error);
    await server.until(() => server.requestsFor(ECHO).length === 1);
    server.dropAll();
    expect(await lost).toBeInstanceOf(ConnectionLostError);
    await stateOf(conn.state$, 'reconnecting');
    const queued = conn.request(ECHO, bytes('queued'));
    await clock.advanceByAsync(2_000);
    expect(text(await queued)).toBe('queued');
  });

  it('drops a link that stopped pinging for the keepalive window and reconnects', async () => {
    await start();
    const conn = await connect({ keepaliveMs: 120_000 });
    await clock.advanceByAsync(119_000);
    server.ping();
    await server.until(() => true);
    expect(text(await conn.request(ECHO, bytes('ping seen')))).toBe('ping seen');
    await clock.advanceByAsync(119_999);
    expect(conn.state.status).toBe('online');
    const reconnecting = stateOf(conn.state$, 'reconnecting');
    await clock.advanceByAsync(1);
    expect(await reconnecting).toMatchObject({ reason: 'no ping from the server for 120000 ms' });
    const online = stateOf(conn.state$, 'online');
    await clock.advanceByAsync(2_000);
    await online;
    expect(server.requestsFor(CONTROL_COMMANDS.reconnect)).toHaveLength(1);
  });

  it('reports a server Close with its code and reason and stops on a duplicate connection', async () => {
    await start();
    const conn = await connect();
    const closed = stateOf(conn.state$, 'closed');
    server.closeWith(6, 'another client connected');
    expect(await closed).toEqual({
      status: 'closed',
      closeCode: 6,
      reason: 'server closed the connection (duplicate connection: another client connected)',
    });
    await expect(conn.request(ECHO, bytes('x'))).rejects.toThrow(ConnectionLostError);
  });

  it('authenticates with a new token after a session-expired Close instead of resuming', async () => {
    await start();
    const conn = await connect();
    const reconnecting = stateOf(conn.state$, 'reconnecting');
    server.closeWith(5, 'session expired');
    await reconnecting;
    const online = stateOf(conn.state$, 'online');
    await clock.advanceByAsync(2_000);
    await online;
    expect(server.requestsFor(CONTROL_COMMANDS.reconnect)).toHaveLength(0);
    expect(messages.authRequest.decode(server.requestsFor(CONTROL_COMMANDS.auth)[1]!.packet.body).token).toBe('otp-2');
  });

  it('reconnects after a server shutdown Close', async () => {
    await start();
    const conn = await connect();
    const reconnecting = stateOf(conn.state$, 'reconnecting');
    server.closeWith(2, 'maintenance');
    expect(await reconnecting).toMatchObject({ reason: 'server closed the connection (server shutdown: maintenance)' });
    const online = stateOf(conn.state$, 'online');
    await clock.advanceByAsync(2_000);
    await online;
  });

  it('backs off doubling while the server is unreachable', async () => {
    await start();
    const conn = await connect();
    const url = server.url;
    await server.stop();
    const attempts: number[] = [];
    conn.state$.subscribe((state) => {
      if (state.status === 'reconnecting') attempts.push(state.retryInMs);
    });
    await stateOf(conn.state$, 'reconnecting');
    for (let i = 0; i < 3; i++) {
      const next = attempts.length + 1;
      await clock.advanceByAsync(attempts.at(-1)!);
      await new Promise<void>((resolve) => {
        const poll = (): void => void (attempts.length >= next ? resolve() : setImmediate(poll));
        poll();
      });
    }
    expect(attempts).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(url).toContain('127.0.0.1');
    server = await SocketTestServer.start();
  });
});
