import { afterEach, describe, expect, it } from 'vitest';
import { RESPONSE_STATUS } from '../../../src/openapi/socket/codec.js';
import { CONTROL_COMMANDS, QUOTE_COMMANDS } from '../../../src/openapi/socket/commands.js';
import { messages } from '../../../src/openapi/socket/messages.js';
import { QuoteClient } from '../../../src/openapi/socket/quote-client.js';
import { HK } from '../../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../../support/sim/harness.js';
import { openRawSocket, type RawSocket } from '../../support/sim/raw-socket.js';
import { serverHolds } from '../../support/sim/server-holds.js';
import { first, stateOf } from '../../support/socket/wait.js';

let h: SimHarness;
const sockets: RawSocket[] = [];

afterEach(async () => {
  for (const raw of sockets.splice(0)) raw.socket.terminate();
  await h.close();
});

async function rawQuoteSocket(): Promise<RawSocket> {
  const raw = await openRawSocket(h.sim.quoteWsUrl);
  sockets.push(raw);
  return raw;
}

async function authenticate(raw: RawSocket, otp?: string): Promise<{ status: number; body: Uint8Array }> {
  const token = otp ?? (await h.http.socketToken()).otp;
  const answer = await raw.request(CONTROL_COMMANDS.auth, messages.authRequest.encode({ token, metadata: {} }));
  return { status: answer.status, body: answer.body };
}

describe('one-time tokens and sessions', () => {
  it('accepts a one-time token once', async () => {
    h = await startSimHarness();
    const { otp } = await h.http.socketToken();
    const answer = await authenticate(await rawQuoteSocket(), otp);
    expect(answer.status).toBe(RESPONSE_STATUS.ok);
    const session = messages.authResponse.decode(answer.body);
    expect(session).toMatchObject({ limit: 10, online: 1 });
    expect(session.expires).toBe(h.clock.now() + 3_600_000);
    const reused = await authenticate(await rawQuoteSocket(), otp);
    expect([reused.status, messages.error.decode(reused.body).msg]).toEqual([
      RESPONSE_STATUS.unauthenticated,
      'one-time token invalid or already used',
    ]);
  });

  it('refuses a one-time token that waited past its lifetime', async () => {
    h = await startSimHarness({ sessions: { otpLifetimeMs: 60_000 } });
    const { otp } = await h.http.socketToken();
    h.clock.advanceBy(60_000);
    const answer = await authenticate(await rawQuoteSocket(), otp);
    expect([answer.status, messages.error.decode(answer.body).msg]).toEqual([RESPONSE_STATUS.unauthenticated, 'one-time token expired']);
  });

  it('refuses every command but auth, reconnect and heartbeat before authentication', async () => {
    h = await startSimHarness();
    const raw = await rawQuoteSocket();
    const heartbeat = messages.heartbeat.encode({ timestamp: 1, heartbeatId: 7 });
    const echoed = await raw.request(CONTROL_COMMANDS.heartbeat, heartbeat);
    expect([echoed.status, messages.heartbeat.decode(echoed.body).heartbeatId]).toEqual([RESPONSE_STATUS.ok, 7]);
    const refused = await raw.request(QUOTE_COMMANDS.quote, messages.multiSecurityRequest.encode({ symbol: [HK] }));
    expect(refused.status).toBe(RESPONSE_STATUS.unauthenticated);
  });

  it('resumes a session on a new connection (cmd 3) until the session expires', async () => {
    h = await startSimHarness({ sessions: { sessionLifetimeMs: 600_000 } });
    const { sessionId } = messages.authResponse.decode((await authenticate(await rawQuoteSocket())).body);
    const resumed = await (await rawQuoteSocket()).request(
      CONTROL_COMMANDS.reconnect,
      messages.reconnectRequest.encode({ sessionId, metadata: {} }),
    );
    expect([resumed.status, messages.reconnectResponse.decode(resumed.body).sessionId]).toEqual([RESPONSE_STATUS.ok, sessionId]);
    h.clock.advanceBy(600_000);
    const expired = await (await rawQuoteSocket()).request(
      CONTROL_COMMANDS.reconnect,
      messages.reconnectRequest.encode({ sessionId, metadata: {} }),
    );
    expect(expired.status).toBe(RESPONSE_STATUS.unauthenticated);
  });

  it('lets our client, whose session expired, authenticate with a new one-time token after a drop', async () => {
    h = await startSimHarness({ sessions: { sessionLifetimeMs: 600_000 }, faults: { socketDropAfterPushes: 1 } });
    let passwords = 0;
    const client = await QuoteClient.connect({
      url: h.sim.quoteWsUrl,
      clock: h.clock,
      keepaliveMs: 86_400_000,
      otp: async () => {
        passwords += 1;
        return h.http.socketToken();
      },
    });
    try {
      const pushed = first(client.quotes([HK]));
      await serverHolds(client, HK);
      h.clock.advanceBy(600_000);
      const reconnecting = stateOf(client.state$, 'reconnecting');
      h.step();
      await pushed;
      await reconnecting;
      const online = stateOf(client.state$, 'online');
      await h.clock.advanceByAsync(2_000);
      expect(await online).toEqual({ status: 'online', reconnected: true });
      expect(passwords).toBe(2);
    } finally {
      await client.close();
    }
  });
});

describe('keepalive and close', () => {
  it('pings with ws ping frames on the clock and never sends text frames', async () => {
    h = await startSimHarness({ pingIntervalMs: 10_000 });
    const raw = await rawQuoteSocket();
    await authenticate(raw);
    h.clock.advanceBy(30_000);
    await raw.request(CONTROL_COMMANDS.heartbeat, messages.heartbeat.encode({ timestamp: 1, heartbeatId: 1 }));
    expect(raw.pings).toEqual([1, 2, 3]);
    expect(raw.textFrames).toEqual([]);
  });

  it('sends Close (code 2, server shutdown) and a close frame with a reason when the simulator stops', async () => {
    h = await startSimHarness();
    const raw = await rawQuoteSocket();
    await authenticate(raw);
    await h.sim.close();
    const closed = await raw.closed;
    const [close] = raw.pushes.filter((push) => push.cmd === CONTROL_COMMANDS.close).map((push) => messages.close.decode(push.body));
    expect(close).toEqual({ code: 2, reason: 'server shutdown' });
    expect(closed).toEqual({ code: 1000, reason: 'server shutdown' });
  });

  it('leaves no timer behind once every connection closed (nothing keeps a process alive after it stopped)', async () => {
    h = await startSimHarness();
    const raw = await rawQuoteSocket();
    await authenticate(raw);

    await h.sim.close();

    await raw.closed;
    expect(h.clock.pendingTimers).toBe(0);
  });

  it('closes a connection that sends a text frame with Close code 3', async () => {
    h = await startSimHarness();
    const raw = await rawQuoteSocket();
    raw.send('hello');
    await raw.closed;
    expect(messages.close.decode(raw.pushes[0]!.body).code).toBe(3);
  });
});
