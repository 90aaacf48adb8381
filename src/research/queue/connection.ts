// The Redis connection of the trial queue, from `--queue redis://[:password@]host:port/db`.
import type { ConnectionOptions } from 'bullmq';
import { InvalidInputError } from '../../domain/errors.js';

/** One queue for every run; jobs carry their run's id, settings and data hash. */
export const QUEUE_NAME = 'trader-trials';

export function queueConnection(url: string): ConnectionOptions {
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
