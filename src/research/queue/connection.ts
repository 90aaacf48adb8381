// The Redis connection of the trial queue, from `--queue redis://[:password@]host:port/db`.
import { Queue, type RedisOptions } from 'bullmq';
import { InvalidInputError } from '../../domain/errors.js';

/** One queue for every run; jobs carry their run's id, settings and data hash. */
export const QUEUE_NAME = 'trader-trials';

/**
 * The queue's address as shown (errors, notices, a worker's log and JSON lines): its password, if any, as ***,
 * so that no log or terminal scrollback keeps it. Also for text that is not a URL at all.
 */
export function shownUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*:)[^/@]*@/i, '$1***@');
}

export function queueConnection(url: string): RedisOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidInputError(`--queue: expected redis://HOST:PORT/DB, got ${shownUrl(url)}`, '--queue');
  }
  if (parsed.protocol !== 'redis:') throw new InvalidInputError(`--queue: expected redis://HOST:PORT/DB, got ${shownUrl(url)}`, '--queue');
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db)) throw new InvalidInputError(`--queue ${shownUrl(url)}: the database is a number, e.g. /0`, '--queue');
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

/**
 * Redis answered and refused: a wrong or missing password, an unknown user, a database number it lacks (after
 * which the client goes on in database 0). No retry mends these, unlike a Redis not up yet.
 */
export function isRefusal(error: Error): boolean {
  return error.name === 'ReplyError';
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
    onError = (error) =>
      reject(
        isRefusal(error)
          ? refusal(url, error)
          : new Error(`--queue ${shownUrl(url)}: cannot reach Redis (${error.message})`, { cause: error }),
      );
  });
  for (const part of parts) part.on('error', onError!);
  try {
    await Promise.race([Promise.all(parts.map((part) => part.waitUntilReady())), failed]);
  } finally {
    for (const part of parts) part.off('error', onError!);
  }
}

/**
 * Closes BullMQ parts whose connection was given up (their retries stopped), once it settled: ready, or ended.
 * Closed sooner, a connection that fails later tells its failure after its listeners were removed, which ends
 * the process.
 */
export async function closeWhenSettled(parts: readonly (Connecting & { close(): Promise<void> })[]): Promise<void> {
  await Promise.allSettled(parts.map((part) => part.waitUntilReady()));
  await Promise.allSettled(parts.map((part) => part.close()));
}

/** The client BullMQ connects with (ioredis, its default), by the one command asked of it here. */
interface SelectingClient {
  select(db: number): Promise<unknown>;
}

/**
 * Waits until Redis takes a connection of the queue, however long it takes to come up (`onWaiting` told of each
 * failed attempt, retried as BullMQ retries), but refuses at once when Redis refuses it (isRefusal), naming the
 * queue's address: a worker left waiting would never work, and one in database 0 would serve another queue.
 * Asked on a connection of its own, closed before this returns.
 */
export async function whenAccepted(url: string, onWaiting: (error: Error) => void): Promise<void> {
  let givenUp = false;
  const connection = {
    ...queueConnection(url),
    retryStrategy: (times: number) => (givenUp ? null : Math.max(Math.min(Math.exp(times), 20_000), 1000)),
  };
  const probe = new Queue(QUEUE_NAME, { connection });
  let onError: ((error: Error) => void) | undefined;
  const refused = new Promise<never>((_, reject) => {
    onError = (error) => (isRefusal(error) ? reject(refusal(url, error)) : onWaiting(error));
  });
  probe.on('error', onError!);
  try {
    await Promise.race([probe.waitUntilReady(), refused]);
    // The database too: the client does not wait for its SELECT, and a refused one leaves it in database 0.
    await Promise.race([
      ((await probe.client) as unknown as SelectingClient).select(connection.db ?? 0).catch((error: Error) => {
        throw isRefusal(error) ? refusal(url, error) : error;
      }),
      refused,
    ]);
  } finally {
    givenUp = true;
    await closeWhenSettled([probe]);
    probe.off('error', onError!);
  }
}

function refusal(url: string, error: Error): Error {
  return new Error(`--queue ${shownUrl(url)}: Redis refused the connection (${error.message})`, { cause: error });
}
