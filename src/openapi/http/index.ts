// Public surface of the OpenAPI HTTP client: the client factory, its result types, the typed errors, and the
// signing pieces a server needs to verify requests.
export { createOpenApiHttp, TOKEN_EXPIRY_WARNING_MS, type OpenApiHttp, type OpenApiHttpOptions } from './client.js';
export { submitOrderBody, replaceOrderBody, type HistoryOrderQuery } from './order-endpoints.js';
export { rfc3339Seconds } from './token-endpoints.js';
export * from './types.js';
export {
  BadResponseError,
  isTransientCode,
  SERVICE_CODES,
  serviceCodeName,
  ServiceError,
  TransportError,
  type OpenApiError,
  type ServiceCodeName,
} from './errors.js';
export {
  canonicalRequest,
  computeSignature,
  parseSignatureHeader,
  signatureHeader,
  signCanonical,
  signRequest,
  SIGNED_HEADERS,
  timestampSeconds,
  verifySignature,
  type Credentials,
  type SignedParts,
} from './signer.js';
export { encodeQuery, encodeQueryComponent, type QueryParams } from './query.js';
export { accountRateLimiter, RateLimiter, TRADE_RATE_LIMIT, type RateLimit } from './rate-limiter.js';
export { DEFAULT_RETRY_DELAYS_MS, DEFAULT_TIMEOUT_MS } from './transport.js';
