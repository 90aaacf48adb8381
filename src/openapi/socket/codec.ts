// The binary packet format of the long connection (PROTOCOL.md §5), both directions: requests, responses and
// pushes, with gzip bodies (flag 0x20) and the signed flag (0x10: an 8-byte nonce and a 16-byte signature
// follow the body, which we skip when reading).
import { gunzipSync, gzipSync } from 'node:zlib';
import { PacketDecodeError } from './errors.js';

export const PACKET_TYPES = { request: 1, response: 2, push: 3 } as const;
const FLAG_SIGNED = 0x10;
const FLAG_GZIP = 0x20;
const SIGNATURE_BYTES = 8 + 16;
export const MAX_TIMEOUT_MS = 60_000;
const MAX_BODY = 0xff_ffff;
/** A gzip body may not inflate past this, so a tiny "zip bomb" frame cannot exhaust memory. */
export const MAX_INFLATED_BODY = 32 * 1024 * 1024;

interface PacketBase {
  readonly cmd: number;
  readonly body: Uint8Array;
}
export interface RequestPacket extends PacketBase {
  readonly type: 'request';
  readonly requestId: number;
  readonly timeoutMs: number;
}
export interface ResponsePacket extends PacketBase {
  readonly type: 'response';
  readonly requestId: number;
  /** 0 ok, 1 timeout, 3 bad request, 5 unauthenticated, 7 server error. */
  readonly status: number;
}
export interface PushPacket extends PacketBase {
  readonly type: 'push';
}
export type Packet = RequestPacket | ResponsePacket | PushPacket;

export interface EncodeOptions {
  /** Compress the body (sets bit 0x20). */
  readonly gzip?: boolean;
  /** Append a nonce and signature (sets bit 0x10); 8 and 16 bytes. */
  readonly signature?: { readonly nonce: Uint8Array; readonly signature: Uint8Array };
}

export const RESPONSE_STATUS = { ok: 0, timeout: 1, badRequest: 3, unauthenticated: 5, serverError: 7 } as const;

export function encodePacket(packet: Packet, options: EncodeOptions = {}): Uint8Array {
  const body = options.gzip ? new Uint8Array(gzipSync(packet.body)) : packet.body;
  if (body.length > MAX_BODY) throw new RangeError(`packet body of ${body.length} bytes exceeds the u24 length field`);
  const headerLength = packet.type === 'request' ? 1 + 1 + 4 + 2 + 3 : packet.type === 'response' ? 1 + 1 + 4 + 1 + 3 : 1 + 1 + 3;
  const signature = options.signature;
  if (signature !== undefined && (signature.nonce.length !== 8 || signature.signature.length !== 16)) {
    throw new RangeError('a packet signature is an 8-byte nonce and a 16-byte signature');
  }
  const bytes = new Uint8Array(headerLength + body.length + (signature === undefined ? 0 : SIGNATURE_BYTES));
  const view = new DataView(bytes.buffer);
  bytes[0] = PACKET_TYPES[packet.type] | (options.gzip ? FLAG_GZIP : 0) | (signature === undefined ? 0 : FLAG_SIGNED);
  bytes[1] = packet.cmd;
  let offset = 2;
  if (packet.type !== 'push') {
    view.setUint32(offset, packet.requestId >>> 0);
    offset += 4;
  }
  if (packet.type === 'request') {
    view.setUint16(offset, Math.min(MAX_TIMEOUT_MS, Math.max(0, Math.round(packet.timeoutMs))));
    offset += 2;
  } else if (packet.type === 'response') {
    bytes[offset++] = packet.status;
  }
  writeU24(view, offset, body.length);
  offset += 3;
  bytes.set(body, offset);
  if (signature !== undefined) {
    bytes.set(signature.nonce, offset + body.length);
    bytes.set(signature.signature, offset + body.length + 8);
  }
  return bytes;
}

/** Reads one frame. Throws PacketDecodeError for anything that is not exactly one valid packet. */
export function decodePacket(frame: Uint8Array): Packet {
  if (frame.length < 2) throw new PacketDecodeError(`frame of ${frame.length} bytes is shorter than any header`);
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const flags = frame[0]!;
  const typeCode = flags & 0x0f;
  if ((flags & 0xc0) !== 0) throw new PacketDecodeError(`unknown flag bits in 0x${flags.toString(16)}`);
  const cmd = frame[1]!;
  const need = (length: number): void => {
    if (frame.length < length) throw new PacketDecodeError(`frame of ${frame.length} bytes is truncated (header needs ${length})`);
  };
  let offset = 2;
  let header:
    | { type: 'request'; requestId: number; timeoutMs: number }
    | { type: 'response'; requestId: number; status: number }
    | { type: 'push' };
  if (typeCode === PACKET_TYPES.request) {
    need(11);
    const timeoutMs = view.getUint16(6);
    if (timeoutMs > MAX_TIMEOUT_MS) throw new PacketDecodeError(`request timeout ${timeoutMs} ms exceeds ${MAX_TIMEOUT_MS}`);
    header = { type: 'request', requestId: view.getUint32(2), timeoutMs };
    offset = 8;
  } else if (typeCode === PACKET_TYPES.response) {
    need(10);
    header = { type: 'response', requestId: view.getUint32(2), status: frame[6]! };
    offset = 7;
  } else if (typeCode === PACKET_TYPES.push) {
    need(5);
    header = { type: 'push' };
  } else {
    throw new PacketDecodeError(`unknown packet type ${typeCode}`);
  }
  const bodyLength = readU24(view, offset);
  offset += 3;
  const trailer = flags & FLAG_SIGNED ? SIGNATURE_BYTES : 0;
  const expected = offset + bodyLength + trailer;
  if (frame.length !== expected) {
    throw new PacketDecodeError(`frame is ${frame.length} bytes but its header announces ${expected}`);
  }
  const raw = frame.subarray(offset, offset + bodyLength);
  const body = flags & FLAG_GZIP ? inflate(raw) : raw;
  return { ...header, cmd, body };
}

function inflate(body: Uint8Array): Uint8Array {
  try {
    return new Uint8Array(gunzipSync(body, { maxOutputLength: MAX_INFLATED_BODY }));
  } catch (error) {
    throw new PacketDecodeError(`gzip body does not inflate (${(error as Error).message})`);
  }
}

function writeU24(view: DataView, offset: number, value: number): void {
  view.setUint8(offset, (value >>> 16) & 0xff);
  view.setUint16(offset + 1, value & 0xffff);
}

function readU24(view: DataView, offset: number): number {
  return (view.getUint8(offset) << 16) | view.getUint16(offset + 1);
}
