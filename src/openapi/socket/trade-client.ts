// The trade connection: subscribes the `private` topic (cmd 16) on connecting, re-subscribes the topics of the
// last SubResponse.current after a reconnect, unsubscribes on request (cmd 17), and turns notifications
// (cmd 18) into domain order updates.
import { mergeMap, share, filter, type Observable } from 'rxjs';
import { silentLogger, type Logger } from '../../log/logger.js';
import { TRADE_COMMANDS } from './commands.js';
import { SocketConnection, type ConnectionOptions } from './connection.js';
import type { ConnectionState } from './connection-state.js';
import { messages } from './messages.js';
import { orderUpdateFromNotification, type PushedOrderUpdate } from './order-update.js';

export const PRIVATE_TOPIC = 'private';
const JSON_CONTENT = 1;

export class TradeClient {
  readonly connection: SocketConnection;
  private readonly logger: Logger;
  private topics: readonly string[] = [PRIVATE_TOPIC];
  private readonly updates: Observable<PushedOrderUpdate>;

  constructor(options: Omit<ConnectionOptions, 'onAuthenticated'>) {
    this.logger = options.logger ?? silentLogger;
    this.connection = new SocketConnection({ ...options, onAuthenticated: () => this.subscribeTopics() });
    this.updates = this.connection.pushes$.pipe(
      filter((packet) => packet.cmd === TRADE_COMMANDS.notification),
      mergeMap((packet) => this.readNotification(packet.body)),
      share(),
    );
  }

  /** Connects, authenticates and subscribes the `private` topic. */
  static async connect(options: Omit<ConnectionOptions, 'onAuthenticated'>): Promise<TradeClient> {
    const client = new TradeClient(options);
    await client.open();
    return client;
  }

  /** Connects a client built with `new` (after subscribing to its streams, so no early push is missed). */
  open(): Promise<void> {
    return this.connection.open();
  }

  get state$(): Observable<ConnectionState> {
    return this.connection.state$;
  }

  /** Topics the service last confirmed (SubResponse.current). */
  get subscribedTopics(): readonly string[] {
    return this.topics;
  }

  /** Order changes as pushed: possibly late, duplicated or out of order (reconcile by query). */
  orderUpdates(): Observable<PushedOrderUpdate> {
    return this.updates;
  }

  /** Subscribes topics (the service knows `private`: this account's order changes); returns the topics now held. */
  async subscribe(topics: readonly string[] = [PRIVATE_TOPIC]): Promise<readonly string[]> {
    const response = await this.connection.call(TRADE_COMMANDS.subscribe, messages.sub, { topics }, messages.subResponse);
    for (const failure of response.fail) this.logger.warn({ topic: failure.topic, reason: failure.reason }, 'topic subscription refused');
    this.topics = response.current.length > 0 ? response.current : [...new Set([...this.topics, ...response.success])];
    return this.topics;
  }

  /** Stops topics (no more order pushes after `private`), also across reconnects; returns the topics still held. */
  async unsubscribe(topics: readonly string[] = [PRIVATE_TOPIC]): Promise<readonly string[]> {
    const response = await this.connection.call(TRADE_COMMANDS.unsubscribe, messages.unsub, { topics }, messages.unsubResponse);
    this.topics = response.current.length > 0 ? response.current : this.topics.filter((topic) => !topics.includes(topic));
    return this.topics;
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  /** After every auth: the topics held before (none once unsubscribed). */
  private async subscribeTopics(): Promise<void> {
    if (this.topics.length > 0) await this.subscribe(this.topics);
  }

  private readNotification(body: Uint8Array): PushedOrderUpdate[] {
    try {
      const notification = messages.notification.decode(body);
      if (notification.contentType !== JSON_CONTENT && notification.contentType !== 0) {
        this.logger.warn({ contentType: notification.contentType }, 'dropping a notification that is not JSON');
        return [];
      }
      const update = orderUpdateFromNotification(new TextDecoder().decode(notification.data));
      return update === undefined ? [] : [update];
    } catch (error) {
      this.logger.warn({ error: (error as Error).message }, 'dropping a malformed order push');
      return [];
    }
  }
}
