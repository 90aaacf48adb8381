// The two connection kinds as services: quote (subscriptions plus questions, within the account's call
// limits: 10 per second overall, 60 history calls per 30 s, refused with 301606) and trade (the `private`
// topic, cmds 16/17, and order_changed_lb notifications, cmd 18, to every link holding it).
import type { Clock } from '../../../domain/clock.js';
import { encodePacket, RESPONSE_STATUS } from '../../../openapi/socket/codec.js';
import { QUOTE_COMMANDS, TRADE_COMMANDS } from '../../../openapi/socket/commands.js';
import { messages } from '../../../openapi/socket/messages.js';
import { PRIVATE_TOPIC } from '../../../openapi/socket/trade-client.js';
import type { VenueOrderUpdate } from '../../venue/index.js';
import { RateWindows } from '../rate-windows.js';
import { orderChangedJson } from '../order-wire.js';
import { QUOTE_CODES, SocketFailure, type CommandHandler, type Link, type LinkService } from './link.js';
import type { QuoteSubscriptions } from './quote-subscriptions.js';

export interface QuoteCallLimits {
  /** Calls per second over all quote commands. */
  readonly perSecond: number;
  /** History candlestick calls (cmd 27) per 30 s. */
  readonly historyPer30s: number;
}

export const DEFAULT_QUOTE_LIMITS: QuoteCallLimits = { perSecond: 10, historyPer30s: 60 };

export function quoteService(
  subscriptions: QuoteSubscriptions,
  queries: readonly [number, CommandHandler][],
  clock: Clock,
  limits: QuoteCallLimits | undefined,
): LinkService {
  const overall = limits === undefined ? undefined : new RateWindows(clock, { calls: limits.perSecond, windowMs: 1000 });
  const history = limits === undefined ? undefined : new RateWindows(clock, { calls: limits.historyPer30s, windowMs: 30_000 });
  const limited =
    (cmd: number, handler: CommandHandler): CommandHandler =>
    (body, link) => {
      const refused =
        overall?.take('account') === false || (cmd === QUOTE_COMMANDS.historyCandlesticks && history?.take('account') === false);
      if (refused) throw new SocketFailure(RESPONSE_STATUS.badRequest, QUOTE_CODES.rateLimited, `command ${cmd}: rate limited, slow down`);
      return handler(body, link);
    };
  const handlers = new Map<number, CommandHandler>();
  for (const [cmd, handler] of [...subscriptions.handlers(), ...queries]) handlers.set(cmd, limited(cmd, handler));
  return { handlers, closed: (link) => subscriptions.closed(link) };
}

const JSON_CONTENT = 1;

export function tradeService(): LinkService & { notify(update: VenueOrderUpdate, links: readonly Link[]): void } {
  const handlers = new Map<number, CommandHandler>([
    [
      TRADE_COMMANDS.subscribe,
      (body, link) => {
        const { topics } = messages.sub.decode(body);
        const success = topics.filter((topic) => topic === PRIVATE_TOPIC);
        for (const topic of success) link.topics.add(topic);
        const fail = topics.filter((topic) => topic !== PRIVATE_TOPIC).map((topic) => ({ topic, reason: `unknown topic "${topic}"` }));
        return messages.subResponse.encode({ success, fail, current: [...link.topics] });
      },
    ],
    [
      TRADE_COMMANDS.unsubscribe,
      (body, link) => {
        for (const topic of messages.unsub.decode(body).topics) link.topics.delete(topic);
        return messages.unsubResponse.encode({ current: [...link.topics] });
      },
    ],
  ]);
  return {
    handlers,
    closed: (link) => link.topics.clear(),
    notify(update, links) {
      const holders = links.filter((link) => link.topics.has(PRIVATE_TOPIC));
      if (holders.length === 0) return;
      const data = new TextEncoder().encode(JSON.stringify({ event: 'order_changed_lb', data: orderChangedJson(update) }));
      const body = messages.notification.encode({ topic: PRIVATE_TOPIC, contentType: JSON_CONTENT, dispatchType: 1, data });
      const frame = encodePacket({ type: 'push', cmd: TRADE_COMMANDS.notification, body });
      for (const link of holders) link.channel.push(frame);
    },
  };
}
