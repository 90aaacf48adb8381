// One client connection on the simulated quote or trade endpoint, what the command handlers of each see,
// and the refusal they throw (a response status plus the service's Error{code, msg} body).
import type WebSocket from 'ws';
import type { PushChannel } from './push-channel.js';
import type { Session } from './sessions.js';

export type LinkKind = 'quote' | 'trade';

export interface Link {
  readonly id: number;
  readonly kind: LinkKind;
  readonly socket: WebSocket;
  readonly channel: PushChannel;
  session: Session | undefined;
  /** Authenticated by resuming a session (cmd 3) rather than with a one-time token. */
  resumed: boolean;
  /** Quote subscriptions: symbol → sub types (1 quote, 2 depth, 3 brokers, 4 trades). */
  readonly subscriptions: Map<string, Set<number>>;
  /** Trade topics (only `private` exists). */
  readonly topics: Set<string>;
}

/** A response body, optionally with work to do once it is sent (pushes that must follow the answer). */
export type CommandReply = Uint8Array | { readonly body: Uint8Array; readonly after: () => void };

/** Answers a request body on a link; throws SocketFailure to refuse it. */
export type CommandHandler = (body: Uint8Array, link: Link) => CommandReply;

export interface LinkService {
  readonly handlers: ReadonlyMap<number, CommandHandler>;
  /** Forgets what the link held (its subscriptions). */
  closed(link: Link): void;
}

export class SocketFailure extends Error {
  constructor(
    /** Response status: 3 bad request, 5 unauthenticated, 7 server error. */
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Quote business codes (PROTOCOL.md §5). */
export const QUOTE_CODES = {
  invalidRequest: 301600,
  serverError: 301602,
  noQuotes: 301603,
  rateLimited: 301606,
  tooManySymbols: 301607,
} as const;
