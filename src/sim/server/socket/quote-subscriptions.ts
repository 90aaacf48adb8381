// Quote subscriptions (cmds 5, 6, 7) and the pushes they bring: on every replayed tick of a symbol, each
// link subscribed to it gets a quote (101), depth (102), broker queue (103) and trade (104) push as it asked,
// each encoded once.
// At most 500 symbols per connection (301607); `is_first_push` sends the current state (quote, depth, broker
// queue) right after the answer, but no trade: a trade is an event, and sending the last one again would count it
// twice in candles built from pushes (the SDK's live candles).
// A malformed symbol is refused as an invalid request (301600).
import { parseSymbol, type SecuritySymbol } from '../../../domain/symbol.js';
import { encodePacket, RESPONSE_STATUS } from '../../../openapi/socket/codec.js';
import { QUOTE_COMMANDS, QUOTE_PUSHES, SUB_TYPES } from '../../../openapi/socket/commands.js';
import { messages } from '../../../openapi/socket/messages.js';
import { brokerQueues } from '../market/broker-queue.js';
import type { QuoteBoard, SymbolQuote } from '../market/quote-board.js';
import { pushDepthOf, pushQuoteOf, pushTradeOf } from '../market/quote-wire.js';
import { QUOTE_CODES, SocketFailure, type CommandHandler, type Link } from './link.js';

export const MAX_SUBSCRIBED_SYMBOLS = 500;

const EMPTY = new Uint8Array();

export class QuoteSubscriptions {
  /** Symbol → links holding any subscription to it. */
  private readonly holders = new Map<string, Set<Link>>();

  constructor(
    private readonly board: QuoteBoard,
    private readonly seed: number,
    private readonly limit = MAX_SUBSCRIBED_SYMBOLS,
  ) {}

  handlers(): [number, CommandHandler][] {
    return [
      [
        QUOTE_COMMANDS.subscriptions,
        (_body, link) =>
          messages.subscriptionResponse.encode({
            subList: [...link.subscriptions].map(([symbol, types]) => ({ symbol, subType: [...types].sort() })),
          }),
      ],
      [QUOTE_COMMANDS.subscribe, (body, link) => this.subscribe(body, link)],
      [QUOTE_COMMANDS.unsubscribe, (body, link) => this.unsubscribe(body, link)],
    ];
  }

  closed(link: Link): void {
    for (const symbol of link.subscriptions.keys()) this.holders.get(symbol)?.delete(link);
    link.subscriptions.clear();
  }

  /** Pushes a tick's state to every link subscribed to its symbol. */
  publish(quote: SymbolQuote): void {
    const links = this.holders.get(quote.symbol);
    if (links === undefined || links.size === 0) return;
    const frames = new Frames(quote, this.seed);
    for (const link of links) {
      const types = link.subscriptions.get(quote.symbol)!;
      if (types.has(SUB_TYPES.quote)) link.channel.push(frames.quote());
      if (types.has(SUB_TYPES.depth)) link.channel.push(frames.depth());
      if (types.has(SUB_TYPES.brokers)) link.channel.push(frames.brokers());
      if (types.has(SUB_TYPES.trades)) link.channel.push(frames.trades());
    }
  }

  private subscribe(body: Uint8Array, link: Link): { body: Uint8Array; after: () => void } {
    const request = messages.subscribeRequest.decode(body);
    const symbols = request.symbol.map((text) => parseSymbol(text));
    const types = request.subType.filter((type) => type >= SUB_TYPES.quote && type <= SUB_TYPES.trades);
    const total = new Set([...link.subscriptions.keys(), ...symbols]).size;
    if (total > this.limit) {
      throw new SocketFailure(
        RESPONSE_STATUS.badRequest,
        QUOTE_CODES.tooManySymbols,
        `subscribing ${total} symbols exceeds the limit of ${this.limit} per connection`,
      );
    }
    for (const symbol of symbols) {
      const held = link.subscriptions.get(symbol) ?? new Set<number>();
      for (const type of types) held.add(type);
      link.subscriptions.set(symbol, held);
      let links = this.holders.get(symbol);
      if (links === undefined) this.holders.set(symbol, (links = new Set()));
      links.add(link);
    }
    return { body: EMPTY, after: () => (request.isFirstPush ? this.firstPush(link, symbols, types) : undefined) };
  }

  private unsubscribe(body: Uint8Array, link: Link): Uint8Array {
    const request = messages.unsubscribeRequest.decode(body);
    const symbols = request.unsubAll ? [...link.subscriptions.keys()] : request.symbol.map((text) => parseSymbol(text));
    for (const symbol of symbols) {
      const held = link.subscriptions.get(symbol);
      if (held === undefined) continue;
      if (request.unsubAll || request.subType.length === 0) held.clear();
      for (const type of request.subType) held.delete(type);
      if (held.size > 0) continue;
      link.subscriptions.delete(symbol);
      this.holders.get(symbol)?.delete(link);
    }
    return EMPTY;
  }

  private firstPush(link: Link, symbols: readonly SecuritySymbol[], types: readonly number[]): void {
    for (const symbol of symbols) {
      const quote = this.board.get(symbol);
      if (quote === undefined) continue;
      const frames = new Frames(quote, this.seed);
      if (types.includes(SUB_TYPES.quote)) link.channel.push(frames.quote());
      if (types.includes(SUB_TYPES.depth)) link.channel.push(frames.depth());
      if (types.includes(SUB_TYPES.brokers)) link.channel.push(frames.brokers());
    }
  }
}

/** The push frames of one tick, each encoded on first use. */
class Frames {
  private quoteFrame: Uint8Array | undefined;
  private depthFrame: Uint8Array | undefined;
  private tradeFrame: Uint8Array | undefined;
  private brokersFrame: Uint8Array | undefined;

  constructor(
    private readonly state: SymbolQuote,
    private readonly seed: number,
  ) {}

  quote(): Uint8Array {
    return (this.quoteFrame ??= encodePacket({
      type: 'push',
      cmd: QUOTE_PUSHES.quote,
      body: messages.pushQuote.encode(pushQuoteOf(this.state)),
    }));
  }

  depth(): Uint8Array {
    return (this.depthFrame ??= encodePacket({
      type: 'push',
      cmd: QUOTE_PUSHES.depth,
      body: messages.pushDepth.encode(pushDepthOf(this.state, this.seed)),
    }));
  }

  brokers(): Uint8Array {
    return (this.brokersFrame ??= encodePacket({
      type: 'push',
      cmd: QUOTE_PUSHES.brokers,
      body: messages.pushBrokers.encode({
        symbol: this.state.symbol,
        sequence: this.state.sequence,
        ...brokerQueues(this.state.symbol, this.state, this.seed),
      }),
    }));
  }

  trades(): Uint8Array {
    return (this.tradeFrame ??= encodePacket({
      type: 'push',
      cmd: QUOTE_PUSHES.trades,
      body: messages.pushTrade.encode(pushTradeOf(this.state)),
    }));
  }
}
