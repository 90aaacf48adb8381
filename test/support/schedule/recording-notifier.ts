// A Notify that keeps what it was given, for asserting which notifications a component sends.
import type { Notification, Notify } from '../../../src/schedule/notification.js';

export class RecordingNotifier implements Notify {
  readonly sent: Notification[] = [];

  notify(notification: Notification): void {
    this.sent.push(notification);
  }

  kinds(): string[] {
    return this.sent.map((notification) => notification.kind);
  }
}
