// What gets sent to people (fills, denials, halts, crashes, token expiry, outages) and the port that sends it.

export const NOTIFICATION_KINDS = ['fill', 'denial', 'halt', 'crash', 'token-expiry', 'outage', 'recovered'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export interface Notification {
  readonly kind: NotificationKind;
  /** One line a person can act on. */
  readonly message: string;
  readonly job?: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Never blocks and never throws: delivery happens in the background. */
export interface Notify {
  notify(notification: Notification): void;
}

export const noNotify: Notify = { notify: () => undefined };
