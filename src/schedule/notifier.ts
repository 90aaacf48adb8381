// Webhook notifications: each one is POSTed as JSON (QueuedNotifier: in order, retried with backoff, bounded).
import { request } from 'undici';
import { QueuedNotifier, type QueueSettings, type QueuedNotification } from './queued-notifier.js';

export type { NotifierStats } from './queued-notifier.js';

export interface WebhookNotifierOptions extends QueueSettings {
  readonly url: string;
}

/** The JSON body of a webhook call. */
export type WebhookPayload = QueuedNotification;

export class WebhookNotifier extends QueuedNotifier {
  constructor(options: WebhookNotifierOptions) {
    super(options, async (payload, signal) => {
      const response = await request(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        signal,
      });
      await response.body.dump();
      return response.statusCode >= 200 && response.statusCode < 300 ? undefined : `HTTP ${response.statusCode}`;
    });
  }
}
