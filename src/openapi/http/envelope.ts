// The response envelope `{code, message|msg, data}` (PROTOCOL.md §2): data on code 0, a ServiceError otherwise.
import { BadResponseError, isTransientCode, ServiceError, TransportError, type FailureContext } from './errors.js';

export interface RawResponse {
  readonly status: number;
  readonly body: string;
  readonly traceId: string | undefined;
}

export interface EnvelopeContext {
  readonly request: string;
  /** Whether the call is safe to repeat; decides `retryable` on failures. */
  readonly idempotent: boolean;
  /** Replaces secret values in any text that came from the server before it reaches an error message. */
  readonly scrub: (text: string) => string;
}

/** The `data` of a successful envelope; throws the typed error for everything else. */
export function unwrapEnvelope(response: RawResponse, context: EnvelopeContext): unknown {
  const failure = (retryable: boolean): FailureContext => ({
    request: context.request,
    httpStatus: response.status,
    traceId: response.traceId,
    retryable: retryable && context.idempotent,
  });
  const envelope = parseJsonObject(response.body);
  if (envelope === undefined || typeof envelope['code'] !== 'number') {
    if (response.status >= 400) {
      const transient = response.status === 429 || response.status >= 500;
      throw new TransportError(
        'HTTP_ERROR',
        `HTTP ${response.status} from ${context.request}: ${snippet(context.scrub(response.body))}`,
        failure(transient),
      );
    }
    const what = envelope === undefined ? 'is not JSON' : 'has no numeric "code"';
    throw new BadResponseError(`response of ${context.request} ${what}: ${snippet(context.scrub(response.body))}`, failure(false), 'code');
  }
  const code = envelope['code'];
  if (code !== 0) {
    const message = textOf(envelope['message']) ?? textOf(envelope['msg']) ?? '';
    throw new ServiceError(code, context.scrub(message), failure(isTransientCode(code)));
  }
  const data = envelope['data'];
  if (data === undefined || data === null) {
    throw new BadResponseError(`response of ${context.request} has no "data"`, failure(false), 'data');
  }
  return data;
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function snippet(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line === '') return '(empty body)';
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
