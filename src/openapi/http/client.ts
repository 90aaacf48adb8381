// The OpenAPI over HTTP as one object: a method per endpoint, domain-typed, sharing one keep-alive pool and
// one rate limiter. The trading methods have the shapes of the Broker port (src/execution/broker.ts).
import type { AccountBalance, BuyLimit, MarginRatio } from '../../domain/account.js';
import type { Order, OrderReplacement, OrderRequest } from '../../domain/order.js';
import type { BrokerPosition } from '../../domain/position.js';
import type { SecuritySymbol } from '../../domain/symbol.js';
import type { BuyLimitQuery, OrderQuery } from '../../execution/broker.js';
import type { OpenApiConfig } from '../config.js';
import * as asset from './asset-endpoints.js';
import * as content from './content-endpoints.js';
import * as orders from './order-endpoints.js';
import * as quote from './quote-endpoints.js';
import * as statement from './statement-endpoints.js';
import * as token from './token-endpoints.js';
import { createTransport, type TransportOptions } from './transport.js';
import type {
  HistoryOrders,
  MyTopicsQuery,
  NewTopic,
  NewTopicReply,
  OrderDetail,
  PageQuery,
  RefreshedToken,
  Security,
  SecurityListQuery,
  SocketToken,
  Statement,
  StatementQuery,
  Topic,
  TopicReply,
  WatchlistGroup,
} from './types.js';

export type OpenApiHttpOptions = TransportOptions;

export const TOKEN_EXPIRY_WARNING_MS = 7 * 24 * 3600_000;

export interface OpenApiHttp {
  // The Broker port's calls.
  /** Never repeated by the client: on a timeout or 429 the caller must look the order up (by remark) first. */
  submitOrder(request: OrderRequest): Promise<{ readonly orderId: string }>;
  cancelOrder(orderId: string): Promise<void>;
  replaceOrder(orderId: string, replacement: OrderReplacement): Promise<void>;
  orderDetail(orderId: string): Promise<OrderDetail>;
  todayOrders(query?: OrderQuery): Promise<readonly Order[]>;
  accountBalance(currency?: string): Promise<readonly AccountBalance[]>;
  positions(symbols?: readonly SecuritySymbol[]): Promise<readonly BrokerPosition[]>;
  estimateBuyLimit(query: BuyLimitQuery): Promise<BuyLimit>;
  marginRatio(symbol: SecuritySymbol): Promise<MarginRatio>;
  // The rest of the spec.
  historyOrders(query?: orders.HistoryOrderQuery): Promise<HistoryOrders>;
  /** `POST /v1/trade/order/submit {order_id}`; the service's answer is passed through. */
  submitOrderById(orderId: string): Promise<unknown>;
  watchlist(): Promise<readonly WatchlistGroup[]>;
  securities(query: SecurityListQuery): Promise<readonly Security[]>;
  statements(query: StatementQuery): Promise<readonly Statement[]>;
  statementDownloadUrl(fileKey: string): Promise<{ readonly url: string }>;
  myTopics(query?: MyTopicsQuery): Promise<readonly Topic[]>;
  createTopic(topic: NewTopic): Promise<{ readonly id: string }>;
  topicDetail(id: string): Promise<Topic>;
  topicReplies(topicId: string, query?: PageQuery): Promise<readonly TopicReply[]>;
  createTopicReply(topicId: string, reply: NewTopicReply): Promise<TopicReply>;
  /** Asks for a new access token valid until `expiresAt` (epoch ms). */
  refreshToken(expiresAt: number): Promise<RefreshedToken>;
  /** One-time password for the quote/trade long connection. */
  socketToken(): Promise<SocketToken>;
  /** Closes the connection pool; pending rate-limited calls fail. */
  close(): Promise<void>;
}

export function createOpenApiHttp(config: OpenApiConfig, options: OpenApiHttpOptions): OpenApiHttp {
  warnIfTokenExpiresSoon(config, options);
  const transport = createTransport(config, options);
  return {
    submitOrder: (request) => orders.submitOrder(transport, request),
    cancelOrder: (orderId) => orders.cancelOrder(transport, orderId),
    replaceOrder: (orderId, replacement) => orders.replaceOrder(transport, orderId, replacement),
    orderDetail: (orderId) => orders.orderDetail(transport, orderId),
    todayOrders: (query) => orders.todayOrders(transport, query),
    accountBalance: (currency) => asset.accountBalance(transport, currency),
    positions: (symbols) => asset.positions(transport, symbols),
    estimateBuyLimit: (query) => asset.estimateBuyLimit(transport, query),
    marginRatio: (symbol) => asset.marginRatio(transport, symbol),
    historyOrders: (query) => orders.historyOrders(transport, query),
    submitOrderById: (orderId) => orders.submitOrderById(transport, orderId),
    watchlist: () => quote.watchlist(transport),
    securities: (query) => quote.securities(transport, query),
    statements: (query) => statement.statements(transport, query),
    statementDownloadUrl: (fileKey) => statement.statementDownloadUrl(transport, fileKey),
    myTopics: (query) => content.myTopics(transport, query),
    createTopic: (topic) => content.createTopic(transport, topic),
    topicDetail: (id) => content.topicDetail(transport, id),
    topicReplies: (topicId, query) => content.topicReplies(transport, topicId, query),
    createTopicReply: (topicId, reply) => content.createTopicReply(transport, topicId, reply),
    refreshToken: (expiresAt) => token.refreshToken(transport, expiresAt),
    socketToken: () => token.socketToken(transport),
    close: () => transport.close(),
  };
}

/** The service issues 90-day tokens; a week's notice leaves time to run `trader token refresh`. */
function warnIfTokenExpiresSoon(config: OpenApiConfig, options: OpenApiHttpOptions): void {
  if (config.tokenExpiresAt === undefined || options.logger === undefined) return;
  const left = config.tokenExpiresAt - options.clock.now();
  if (left > TOKEN_EXPIRY_WARNING_MS) return;
  const expiresAt = new Date(config.tokenExpiresAt).toISOString();
  const message =
    left <= 0
      ? `the access token expired at ${expiresAt}: create a new one in the LongPort developer center`
      : `the access token expires in ${Math.ceil(left / 86_400_000)} day(s), at ${expiresAt}: run \`trader token refresh\``;
  options.logger.warn({ tokenExpiresAt: expiresAt }, message);
}
