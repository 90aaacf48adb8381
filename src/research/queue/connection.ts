// The Redis connection of the trial queue, from `--queue redis://[:password@]host:port/db`.
import type { RedisOptions } from 'bullmq';
import { InvalidInputError } from '../../domain/errors.js';

/** One queue for every run; jobs carry their run's id, settings and data hash. */
export const QUEUE_NAME = 'trader-trials';

export function queueConnection(url: string): RedisOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidInputError(`--queue: expected redis://HOST:PORT/DB, got ${url}`, '--queue');
  }
  if (parsed.protocol !== 'redis:') throw new InvalidInputError(`--queue: expected redis://HOST:PORT/DB, got ${url}`, '--queue');
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) throw new InvalidInputError(`--queue ${url}: the database is a number, e.g. /0`, '--queue');
  return {
    host: parsed.hostname || '127.0.0.1',
    port: parsed.port === '' ? 6379 : Number(parsed.port),
    db: db === '' ? 0 : Number(db),
    ...(parsed.password === '' ? {} : { password: decodeURIComponent(parsed.password) }),
    ...(parsed.username === '' ? {} : { username: decodeURIComponent(parsed.username) }),
    // BullMQ workers block on Redis; they must not give up on a slow reply.
    maxRetriesPerRequest: null,
  };
}

/** A BullMQ queue or event stream: connected when ready, telling connection failures as 'error' events. */
interface Connecting {
  waitUntilReady(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Waits until every part is connected; the first connection error refuses, naming the queue's address
 * (BullMQ's client would otherwise retry for ever, and a submitting command would hang without a word).
 */
export async function whenConnected(url: string, parts: readonly Connecting[]): Promise<void> {
  let onError: ((error: Error) => void) | undefined;
  const failed = new Promise<never>((_, reject) => {
    onError = (error) => reject(new Error(`--queue ${url}: cannot reach Redis (${error.message})`, { cause: error }));
  });
  for (const part of parts) part.on('error', onError!);
  try {
    await Promise.race([Promise.all(parts.map((part) => part.waitUntilReady())), failed]);
  } finally {
    for (const part of parts) part.off('error', onError!);
  }
}
