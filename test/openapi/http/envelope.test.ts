import { describe, expect, it } from 'vitest';
import { unwrapEnvelope, type EnvelopeContext } from '../../../src/openapi/http/envelope.js';
import { BadResponseError, SERVICE_CODES, ServiceError, TransportError, type ServiceCodeName } from '../../../src/openapi/http/errors.js';

const get: EnvelopeContext = {
  request: 'GET /v1/asset/account',
  idempotent: true,
  scrub: (text) => text.split('S3CRET').join('[redacted]'),
};
const post: EnvelopeContext = { ...get, request: 'POST /v1/trade/order', idempotent: false };
const response = (body: unknown, status = 200, traceId: string | undefined = 'trace-1') => ({
  status,
  traceId,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('the response envelope', () => {
  it('returns data on code 0, reading either message or msg', () => {
    expect(unwrapEnvelope(response({ code: 0, message: 'ok', data: { a: 1 } }), get)).toEqual({ a: 1 });
    expect(unwrapEnvelope(response({ code: 0, msg: 'ok', data: { a: 2 } }), get)).toEqual({ a: 2 });
    expect(unwrapEnvelope(response({ code: 0, data: {} }), get)).toEqual({});
  });

  it('takes the error text from msg when message is absent', () => {
    const error = caught(() => unwrapEnvelope(response({ code: 602001, msg: 'user not found', data: null }), get)) as ServiceError;
    expect(error.message).toBe('user not found (602001)');
    expect(error.code).toBe('SERVICE_ERROR');
  });

  it('refuses a success without data, naming the field', () => {
    for (const body of [
      { code: 0, message: '' },
      { code: 0, message: '', data: null },
    ]) {
      const error = caught(() => unwrapEnvelope(response(body), get));
      expect(error).toBeInstanceOf(BadResponseError);
      expect((error as BadResponseError).field).toBe('data');
      expect((error as Error).message).toBe('response of GET /v1/asset/account has no "data"');
    }
  });

  it('refuses a non-JSON success body, quoting it briefly', () => {
    const error = caught(() => unwrapEnvelope(response('<html>gateway</html>'), get)) as BadResponseError;
    expect(error).toBeInstanceOf(BadResponseError);
    expect(error.message).toBe('response of GET /v1/asset/account is not JSON: <html>gateway</html>');
    expect(error.traceId).toBe('trace-1');
  });

  it('refuses JSON without a numeric code', () => {
    expect(() => unwrapEnvelope(response({ data: {} }), get)).toThrow('has no numeric "code"');
  });

  it('turns a plain-text HTTP error into a transport error keeping status and trace id', () => {
    const error = caught(() => unwrapEnvelope(response('Too Many Requests', 429, 'abc'), get)) as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect(error.code).toBe('HTTP_ERROR');
    expect(error.httpStatus).toBe(429);
    expect(error.traceId).toBe('abc');
    expect(error.retryable).toBe(true);
    expect(error.message).toBe('HTTP 429 from GET /v1/asset/account: Too Many Requests');
    expect((caught(() => unwrapEnvelope(response('nope', 404), get)) as TransportError).retryable).toBe(false);
  });

  const known: readonly [ServiceCodeName, number, string, boolean][] = [
    ['SIGNATURE_INVALID', 403201, 'signature invalid (403201)', false],
    ['DUPLICATE_REQUEST', 403202, 'duplicate request (403202)', false],
    ['API_KEY_ILLEGAL', 403203, 'api key illegal (403203)', false],
    ['IP_NOT_ALLOWED', 403205, 'IP not allowed (403205)', false],
    ['TOKEN_EXPIRED', 401003, 'token expired (401003)', false],
    ['TOKEN_INVALID', 401004, 'token invalid (401004)', false],
    ['IP_RATE_LIMITED', 429001, 'rate limited (IP) (429001)', true],
    ['API_RATE_LIMITED', 429002, 'rate limited (API) (429002)', true],
    ['INTERNAL_ERROR', 500000, 'internal error (500000)', true],
  ];

  it.each(known)('maps %s (%i) to a named, readable ServiceError', (name, code, message, transient) => {
    const error = caught(() => unwrapEnvelope(response({ code, message: 'server text', data: null }, 403, 'tid-9'), get)) as ServiceError;
    expect(error).toBeInstanceOf(ServiceError);
    expect(SERVICE_CODES[name]).toBe(code);
    expect(error.code).toBe(name);
    expect(error.serviceCode).toBe(code);
    expect(error.serviceMessage).toBe('server text');
    expect(error.message.startsWith(message)).toBe(true);
    expect(error.httpStatus).toBe(403);
    expect(error.traceId).toBe('tid-9');
    expect(error.request).toBe('GET /v1/asset/account');
    expect(error.retryable).toBe(transient);
  });

  it('never marks a failed order submission retryable, even for transient codes', () => {
    for (const code of [429001, 429002, 500000]) {
      const error = caught(() => unwrapEnvelope(response({ code, message: 'busy', data: null }), post)) as ServiceError;
      expect(error.retryable).toBe(false);
    }
  });

  it('scrubs secrets the server echoes back out of error messages', () => {
    const error = caught(() => unwrapEnvelope(response({ code: 1, message: 'bad secret S3CRET', data: null }), get)) as ServiceError;
    expect(error.message).toBe('bad secret [redacted] (1)');
    const plain = caught(() => unwrapEnvelope(response('echo S3CRET', 500), get)) as TransportError;
    expect(plain.message).not.toContain('S3CRET');
  });
});
