// A bare long-connection client for tests: sends request packets and records, frame by frame, what the server
// sends back (responses, pushes, pings, text frames, the close frame), so a test sees the wire as it is.
import WebSocket from 'ws';
import { decodePacket, encodePacket, type PushPacket, type ResponsePacket } from '../../../src/openapi/socket/codec.js';

export interface RawSocket {
  readonly socket: WebSocket;
  readonly pushes: PushPacket[];
  readonly pings: number[];
  readonly textFrames: string[];
  /** Resolves with the close frame's code and reason. */
  readonly closed: Promise<{ readonly code: number; readonly reason: string }>;
  request(cmd: number, body: Uint8Array): Promise<ResponsePacket>;
  send(bytes: Uint8Array | string): void;
  /** Resolves once `count` pushes arrived (guarded by a real-time timeout so a broken test fails). */
  pushesReach(count: number, timeoutMs?: number): Promise<PushPacket[]>;
}

export async function openRawSocket(url: string): Promise<RawSocket> {
  const socket = new WebSocket(`${url}?version=1&codec=1&platform=9`);
  socket.binaryType = 'nodebuffer';
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const pushes: PushPacket[] = [];
  const pings: number[] = [];
  const textFrames: string[] = [];
  const waiting = new Map<number, (packet: ResponsePacket) => void>();
  const listeners = new Set<() => void>();
  let nextId = 1;
  socket.on('ping', () => pings.push(pings.length + 1));
  socket.on('message', (data, isBinary) => {
    if (!isBinary) {
      textFrames.push(String(data));
      return;
    }
    const packet = decodePacket(new Uint8Array(data as Buffer));
    if (packet.type === 'response') waiting.get(packet.requestId)?.(packet);
    else if (packet.type === 'push') pushes.push(packet);
    for (const listener of listeners) listener();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return {
    socket,
    pushes,
    pings,
    textFrames,
    closed,
    request(cmd, body) {
      const requestId = nextId++;
      return new Promise((resolve) => {
        waiting.set(requestId, resolve);
        socket.send(encodePacket({ type: 'request', cmd, requestId, timeoutMs: 10_000, body }));
      });
    },
    send: (bytes) => socket.send(bytes),
    pushesReach(count, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (pushes.length < count) return;
          listeners.delete(check);
          clearTimeout(guard);
          resolve(pushes.slice());
        };
        // A real-time guard so a broken test fails instead of hanging; never part of the behaviour tested.
        const guard = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`only ${pushes.length} of ${count} pushes within ${timeoutMs} ms`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
  };
}
