import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePacket, encodePacket, MAX_INFLATED_BODY, type Packet } from '../../../src/openapi/socket/codec.js';
import { PacketDecodeError } from '../../../src/openapi/socket/errors.js';
import { messages } from '../../../src/openapi/socket/messages.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('packet codec', () => {
  it('encodes the trade subscribe request exactly as PROTOCOL.md shows it', () => {
    const body = messages.sub.encode({ topics: ['private'] });
    const bytes = encodePacket({ type: 'request', cmd: 16, requestId: 2, timeoutMs: 30_000, body });
    expect(hex(bytes)).toBe('01' + '10' + '00000002' + '7530' + '000009' + '0a0770726976617465');
  });

  it('round-trips requests, responses and pushes, plain and gzip-compressed', () => {
    const body = new TextEncoder().encode('hello body');
    const packets: Packet[] = [
      { type: 'request', cmd: 11, requestId: 0xfffffffe, timeoutMs: 60_000, body },
      { type: 'response', cmd: 11, requestId: 7, status: 3, body },
      { type: 'push', cmd: 101, body },
      { type: 'push', cmd: 101, body: new Uint8Array() },
    ];
    for (const packet of packets) {
      for (const gzip of [false, true]) {
        const decoded = decodePacket(encodePacket(packet, { gzip }));
        expect({ ...decoded, body: hex(decoded.body) }).toEqual({ ...packet, body: hex(packet.body) });
      }
    }
  });

  it('sets the gzip bit and inflates such bodies on reading', () => {
    const body = new Uint8Array(2000).fill(65);
    const bytes = encodePacket({ type: 'push', cmd: 101, body }, { gzip: true });
    expect(bytes[0]! & 0x20).toBe(0x20);
    expect(bytes.length).toBeLessThan(200);
    expect(decodePacket(bytes).body).toEqual(body);
  });

  it('skips the nonce and signature of a signed packet', () => {
    const body = new Uint8Array([1, 2, 3]);
    const signature = { nonce: new Uint8Array(8).fill(9), signature: new Uint8Array(16).fill(7) };
    const bytes = encodePacket({ type: 'response', cmd: 2, requestId: 1, status: 0, body }, { signature });
    expect(bytes[0]! & 0x10).toBe(0x10);
    expect(bytes.length).toBe(10 + 3 + 24);
    expect(decodePacket(bytes)).toMatchObject({ type: 'response', cmd: 2, requestId: 1, status: 0, body });
  });

  it('caps the request timeout at 60000 ms', () => {
    const bytes = encodePacket({ type: 'request', cmd: 11, requestId: 1, timeoutMs: 90_000, body: new Uint8Array() });
    expect(decodePacket(bytes)).toMatchObject({ timeoutMs: 60_000 });
  });

  it('rejects a frame whose length disagrees with its header', () => {
    const bytes = encodePacket({ type: 'push', cmd: 101, body: new Uint8Array([1, 2, 3]) });
    expect(() => decodePacket(bytes.subarray(0, bytes.length - 1))).toThrow(PacketDecodeError);
    expect(() => decodePacket(new Uint8Array([...bytes, 0]))).toThrow(/announces/);
  });

  it('rejects an unknown packet type and a corrupt gzip body', () => {
    expect(() => decodePacket(new Uint8Array([0x04, 1, 0, 0, 0]))).toThrow(/unknown packet type 4/);
    expect(() => decodePacket(new Uint8Array([0x23, 101, 0, 0, 2, 0x1f, 0x8b]))).toThrow(/gzip/);
  });

  it('refuses a gzip body that inflates past the cap instead of allocating it', () => {
    const bomb = gzipSync(Buffer.alloc(MAX_INFLATED_BODY + 1));
    const frame = new Uint8Array([0x23, 101, (bomb.length >> 16) & 0xff, (bomb.length >> 8) & 0xff, bomb.length & 0xff, ...bomb]);
    expect(() => decodePacket(frame)).toThrow(PacketDecodeError);
  });

  it('never fails with anything but PacketDecodeError on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        try {
          decodePacket(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(PacketDecodeError);
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it('rejects every strict truncation of a valid frame with PacketDecodeError', () => {
    const packet = fc.oneof(
      fc.record({
        type: fc.constant('request' as const),
        cmd: fc.integer({ min: 0, max: 255 }),
        requestId: fc.nat(),
        timeoutMs: fc.integer({ min: 0, max: 60_000 }),
        body: fc.uint8Array({ maxLength: 300 }),
      }),
      fc.record({
        type: fc.constant('response' as const),
        cmd: fc.integer({ min: 0, max: 255 }),
        requestId: fc.nat(),
        status: fc.integer({ min: 0, max: 255 }),
        body: fc.uint8Array({ maxLength: 300 }),
      }),
      fc.record({ type: fc.constant('push' as const), cmd: fc.integer({ min: 0, max: 255 }), body: fc.uint8Array({ maxLength: 300 }) }),
    );
    fc.assert(
      fc.property(packet, fc.boolean(), fc.nat(), (value, gzip, cut) => {
        const frame = encodePacket(value, { gzip });
        expect(decodePacket(frame).body).toEqual(value.body);
        const truncated = frame.subarray(0, cut % frame.length);
        expect(() => decodePacket(truncated)).toThrow(PacketDecodeError);
      }),
      { numRuns: 2_000 },
    );
  });

  it('survives random corruption of valid frames (bit flips) with a typed error or a packet', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        fc.boolean(),
        (body, position, mask, gzip) => {
          const frame = encodePacket({ type: 'push', cmd: 101, body }, { gzip });
          frame[position % frame.length]! ^= mask;
          try {
            decodePacket(frame);
          } catch (error) {
            expect(error).toBeInstanceOf(PacketDecodeError);
          }
        },
      ),
      { numRuns: 3_000 },
    );
  });
});
