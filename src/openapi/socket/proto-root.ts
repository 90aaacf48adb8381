// One protobuf root for every message of the long connection (the core schema and the reference one), and the
// typed codec over a message of it: camelCase fields, 64-bit integers as numbers, defaults filled in.
import protobuf from 'protobufjs';
import { PacketDecodeError } from './errors.js';
import { PROTO_SCHEMA } from './proto-schema.js';
import { REFERENCE_PROTO_SCHEMA } from './proto-schema-reference.js';

const root = protobuf.parse(PROTO_SCHEMA, { keepCase: false }).root;
protobuf.parse(REFERENCE_PROTO_SCHEMA, root, { keepCase: false });

export interface MessageCodec<T> {
  readonly name: string;
  encode(value: T): Uint8Array;
  /** Throws PacketDecodeError when the bytes are not this message. */
  decode(bytes: Uint8Array): T;
}

export function codec<T>(name: string): MessageCodec<T> {
  const type = root.lookupType(`longport.${name}`);
  return {
    name,
    encode: (value) => type.encode(type.fromObject(value as Record<string, unknown>)).finish(),
    decode: (bytes) => {
      try {
        return type.toObject(type.decode(bytes), { longs: Number, defaults: true, arrays: true, objects: true, bytes: Uint8Array }) as T;
      } catch (error) {
        throw new PacketDecodeError(`${name} body does not decode (${(error as Error).message})`);
      }
    },
  };
}
