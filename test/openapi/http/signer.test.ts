import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  canonicalRequest,
  computeSignature,
  parseSignatureHeader,
  signatureHeader,
  signRequest,
  verifySignature,
  type SignedParts,
} from '../../../src/openapi/http/signer.js';

const credentials = { appKey: 'fake-app-key', appSecret: 'fake-app-secret', accessToken: 'fake-access-token' };
const base = { appKey: credentials.appKey, accessToken: credentials.accessToken, timestamp: '1700000000' };
const orderBody =
  '{"order_type":"LO","side":"Buy","submitted_price":"50","submitted_quantity":"200","symbol":"700.HK","time_in_force":"Day"}';
const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');

// PROTOCOL.md §1, each confirmed against the official SDK.
const vectors: readonly { name: string; parts: SignedParts; canonicalSha1: string; signature: string }[] = [
  {
    name: 'GET /v1/asset/account without query',
    parts: { ...base, method: 'GET', path: '/v1/asset/account', query: '' },
    canonicalSha1: '4b4aace90ffb7e66bfadbe9d67d82313bb7f6a03',
    signature: '1e1c96ed003ca8febc7993830bcb5a6da7685eec54d30169ab21b7a46373baa8',
  },
  {
    name: 'GET /v1/asset/stock with a repeated symbol',
    parts: { ...base, method: 'GET', path: '/v1/asset/stock', query: 'symbol=700.HK&symbol=BABA.US' },
    canonicalSha1: '7137825a7f823088e754143848ea9bf8a58ad521',
    signature: '976cb64af1f2a365a4e4c23972a3722cbf9c9d606a0d0e17f78e75e849000490',
  },
  {
    name: 'POST /v1/trade/order with a body',
    parts: { ...base, method: 'POST', path: '/v1/trade/order', query: '', body: orderBody },
    canonicalSha1: '73d0d0e94b94028e199a4ac75fd77ac55af30380',
    signature: '96f28c73dc09041d3c20bc62e2207b1a184eb1bc808b51dee1247058ccf7df69',
  },
];

describe('signer', () => {
  it.each(vectors)('reproduces the protocol vector: $name', ({ parts, canonicalSha1, signature }) => {
    expect(sha1(canonicalRequest(parts))).toBe(canonicalSha1);
    expect(computeSignature(credentials.appSecret, parts)).toBe(signature);
  });

  it('hashes the body bytes given, so bytes and text sign alike', () => {
    const asText = computeSignature('s', { ...base, method: 'POST', path: '/p', query: '', body: orderBody });
    const asBytes = computeSignature('s', { ...base, method: 'POST', path: '/p', query: '', body: Buffer.from(orderBody) });
    expect(asBytes).toBe(asText);
    expect(sha1(orderBody)).toBe('7da1446b4f521f9b5ec77f5e2981468e878cd500');
  });

  it('signs integer-second timestamps taken from the clock', () => {
    const headers = signRequest(credentials, { method: 'GET', path: '/v1/asset/account', query: '' }, 1_700_000_000_999);
    expect(headers['x-timestamp']).toBe('1700000000');
    expect(headers['authorization']).toBe('fake-access-token');
    expect(headers['x-api-key']).toBe('fake-app-key');
    expect(headers['x-api-signature']).toBe(signatureHeader(vectors[0]!.signature));
  });

  it('lets a server verify a request signed with a fractional timestamp (older SDKs, the spec)', () => {
    const parts: SignedParts = { ...base, timestamp: '1700000000.123', method: 'GET', path: '/v1/asset/account', query: '' };
    const header = signatureHeader(computeSignature(credentials.appSecret, parts));
    expect(verifySignature(credentials.appSecret, parts, header)).toBe(true);
  });

  it('rejects a signature when the query, body, secret or header form differs', () => {
    const parts = vectors[2]!.parts;
    const header = signatureHeader(vectors[2]!.signature);
    expect(verifySignature(credentials.appSecret, parts, header)).toBe(true);
    expect(verifySignature(credentials.appSecret, { ...parts, body: `${orderBody} ` }, header)).toBe(false);
    expect(verifySignature(credentials.appSecret, { ...parts, query: 'a=1' }, header)).toBe(false);
    expect(verifySignature('other-secret', parts, header)).toBe(false);
    expect(verifySignature(credentials.appSecret, parts, `Signature=${vectors[2]!.signature}`)).toBe(false);
  });

  it('parses the X-Api-Signature header', () => {
    expect(parseSignatureHeader(signatureHeader('ab12'))).toEqual({
      signedHeaders: 'authorization;x-api-key;x-timestamp',
      signature: 'ab12',
    });
    expect(parseSignatureHeader('Bearer x')).toBeUndefined();
  });
});
