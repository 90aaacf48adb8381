// What a long connection is doing, as its own stream for the runtime and the logs, and the one-time
// token it authenticates with (issued by `GET /v1/socket/token`, which the HTTP client owns).

export type ConnectionState =
  | { readonly status: 'connecting' }
  | { readonly status: 'online'; readonly reconnected: boolean }
  | { readonly status: 'reconnecting'; readonly attempt: number; readonly reason: string; readonly retryInMs: number }
  | { readonly status: 'closed'; readonly reason: string; readonly closeCode?: number };

export interface SocketToken {
  readonly otp: string;
  /** Connections the account may hold at once. */
  readonly limit: number;
  /** Connections the account holds now. */
  readonly online: number;
}

/** Fetches a fresh one-time token; called for the first connect and whenever the session has expired. */
export type OtpProvider = () => Promise<SocketToken>;
