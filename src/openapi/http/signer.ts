// Request signing of the LongPort OpenAPI (PROTOCOL.md §1). The pure pieces are exported separately so a
// server (the simulator) can rebuild the canonical request from what it received and verify the signature.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNED_HEADERS = 'authorization;x-api-key;x-timestamp';
const SIGNATURE_HEADER = /^HMAC-SHA256 SignedHeaders=([^,]+), Signature=([0-9a-f]+)$/;

/** Everything the signature covers, exactly as it travels on the wire. */
export interface SignedParts {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** The request path without the query, e.g. `/v1/asset/account`. */
  readonly path: string;
  /** The raw query string as sent (no leading `?`, not re-encoded, not sorted); '' when none. */
  readonly query: string;
  /** The `Authorization` header value (the raw access token). */
  readonly accessToken: string;
  /** The `X-Api-Key` header value. */
  readonly appKey: string;
  /** The `X-Timestamp` header value verbatim: integer seconds from our client, fractions from older ones. */
  readonly timestamp: string;
  /** The exact body bytes; empty or absent for GET/DELETE. */
  readonly body?: Uint8Array | string;
}

export function canonicalRequest(parts: SignedParts): string {
  let canonical =
    `${parts.method.toUpperCase()}|${parts.path}|${parts.query}|` +
    `authorization:${parts.accessToken}\nx-api-key:${parts.appKey}\nx-timestamp:${parts.timestamp}\n` +
    `|${SIGNED_HEADERS}|`;
  const body = parts.body ?? '';
  if (body.length > 0) canonical += sha1Hex(body);
  return canonical;
}

/** hex(hmac_sha256(appSecret, "HMAC-SHA256|" + hex(sha1(canonical)))). */
export function signCanonical(appSecret: string, canonical: string): string {
  return createHmac('sha256', appSecret)
    .update(`HMAC-SHA256|${sha1Hex(canonical)}`)
    .digest('hex');
}

export function computeSignature(appSecret: string, parts: SignedParts): string {
  return signCanonical(appSecret, canonicalRequest(parts));
}

export function signatureHeader(signature: string): string {
  return `HMAC-SHA256 SignedHeaders=${SIGNED_HEADERS}, Signature=${signature}`;
}

/** The signature out of an `X-Api-Signature` value, or undefined when the value is malformed. */
export function parseSignatureHeader(value: string): { readonly signedHeaders: string; readonly signature: string } | undefined {
  const match = SIGNATURE_HEADER.exec(value.trim());
  return match === null ? undefined : { signedHeaders: match[1]!, signature: match[2]! };
}

/** Server side: does this `X-Api-Signature` value match the request? (constant-time comparison) */
export function verifySignature(appSecret: string, parts: SignedParts, headerValue: string): boolean {
  const parsed = parseSignatureHeader(headerValue);
  if (parsed === undefined || parsed.signedHeaders !== SIGNED_HEADERS) return false;
  const expected = Buffer.from(computeSignature(appSecret, parts), 'hex');
  const given = Buffer.from(parsed.signature, 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Current SDKs send integer seconds. */
export function timestampSeconds(epochMs: number): string {
  return String(Math.floor(epochMs / 1000));
}

export interface Credentials {
  readonly appKey: string;
  readonly appSecret: string;
  readonly accessToken: string;
}

/** The four authentication headers of one request. */
export function signRequest(
  credentials: Credentials,
  request: { readonly method: string; readonly path: string; readonly query: string; readonly body?: Uint8Array },
  epochMs: number,
): Record<string, string> {
  const timestamp = timestampSeconds(epochMs);
  const signature = computeSignature(credentials.appSecret, {
    ...request,
    accessToken: credentials.accessToken,
    appKey: credentials.appKey,
    timestamp,
  });
  return {
    'x-api-key': credentials.appKey,
    authorization: credentials.accessToken,
    'x-timestamp': timestamp,
    'x-api-signature': signatureHeader(signature),
  };
}

function sha1Hex(data: Uint8Array | string): string {
  return createHash('sha1').update(data).digest('hex');
}
