// Notifications to Telegram: each one sent as a message to every configured chat, through the same queue
// as the webhook's (in order, retried with backoff, bounded). A chat already served is not sent to again
// when another one fails and the notification is retried. A Bot API 429 (Telegram allows about one message
// a second per chat) says how long to wait: the retry waits at least that long.
import { GrammyError, type Api } from 'grammy';
import { scrubSecrets } from '../../log/logger.js';
import { QueuedNotifier, type QueueSettings, type QueuedNotification } from '../../schedule/queued-notifier.js';

const ICONS: Readonly<Record<string, string>> = {
  fill: '✅',
  denial: '⛔',
  halt: '🛑',
  crash: '💥',
  'token-expiry': '🔑',
  outage: '📡',
  recovered: '🟢',
};

export function notificationText(notification: QueuedNotification): string {
  return `${ICONS[notification.kind] ?? ''} ${notification.kind}: ${notification.message}`.trim();
}

export function telegramNotifier(api: Api, chats: readonly number[], token: string, settings: QueueSettings): QueuedNotifier {
  const served = new Map<number, Set<number>>();
  return new QueuedNotifier(settings, async (notification, signal) => {
    const done = served.get(notification.id) ?? new Set<number>();
    served.set(notification.id, done);
    // Notifications given up stay behind; only the latest few can still be retried.
    if (served.size > 100) served.delete(served.keys().next().value!);
    const problems: string[] = [];
    let retryAfterMs = 0;
    for (const chat of chats) {
      if (done.has(chat)) continue;
      try {
        // grammy types its signal after the abort-controller package; node-fetch takes the native one.
        await api.sendMessage(chat, notificationText(notification), {}, signal as unknown as Parameters<Api['sendMessage']>[3]);
        done.add(chat);
      } catch (error) {
        const retryAfter = error instanceof GrammyError ? error.parameters.retry_after : undefined;
        if (retryAfter !== undefined) retryAfterMs = Math.max(retryAfterMs, retryAfter * 1000);
        problems.push(`chat ${chat}: ${scrubSecrets(error instanceof Error ? error.message : String(error), [token])}`);
      }
    }
    if (problems.length > 0) return { problem: problems.join('; '), retryAfterMs };
    served.delete(notification.id);
    return undefined;
  });
}
