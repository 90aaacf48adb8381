// Several notification channels (webhook, chat) as one: each notification goes to every channel, each with
// its own queue; the stats are their sums, and per channel for metrics.
import type { Notification } from './notification.js';
import type { ManagedNotifier, NotifierStats } from './queued-notifier.js';

export class NotifierGroup implements ManagedNotifier {
  constructor(private readonly members: ReadonlyMap<string, ManagedNotifier>) {}

  notify(notification: Notification): void {
    for (const member of this.members.values()) member.notify(notification);
  }

  stats(): NotifierStats {
    const total = { queued: 0, sent: 0, failed: 0, dropped: 0 };
    for (const member of this.members.values()) {
      const stats = member.stats();
      total.queued += stats.queued;
      total.sent += stats.sent;
      total.failed += stats.failed;
      total.dropped += stats.dropped;
    }
    return total;
  }

  /** Stats of each channel by name ('webhook', 'telegram'). */
  channels(): ReadonlyMap<string, NotifierStats> {
    return new Map([...this.members].map(([name, member]) => [name, member.stats()]));
  }

  async drain(): Promise<void> {
    await Promise.all([...this.members.values()].map((member) => member.drain()));
  }

  close(): void {
    for (const member of this.members.values()) member.close();
  }
}
