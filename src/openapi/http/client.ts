// The OpenAPI over HTTP as one object: a method per endpoint, domain-typed, sharing one keep-alive pool and
// one rate limiter. The trading methods have the shapes of the Broker port (src/execution/broker.ts).
import type { AccountBalance, BuyLimit, MarginRatio } from '../../domain/account.js';
import type { Order, OrderReplacement, OrderRequest } from '../../domain/order.js';
import type { BrokerPosition } from '../../domain/position.js';
import type { Market, SecuritySymbol } from '../../domain/symbol.js';
import type { BuyLimitQuery, OrderQuery, ReadOptions } from '../../execution/broker.js';
import type { OpenApiConfig } from '../config.js';
import * as asset from './asset-endpoints.js';
import * as content from './content-endpoints.js';
import * as orders from './order-endpoints.js';
import * as cashFlows from './cash-flow-endpoints.js';
import * as executions from './execution-endpoints.js';
import * as securities from './security-endpoints.js';
import * as statement from './statement-endpoints.js';
import * as temperature from './temperature-endpoints.js';
import * as token from './token-endpoints.js';
import * as watchlists from './watchlist-endpoints.js';
import { createTransport, type CloseOptions, type TransportOptions } from './transport.js';
import type {
  CashFlow,
  CashFlowQuery,
  Execution,
  FundPosition,
  HistoryExecutionQuery,
  HistoryOrders,
  MarketTemperature,
  NewWatchlistGroup,
  RawRequest,
  TemperatureHistory,
  TodayExecutionQuery,
  WatchlistGroupUpdate,
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
  accountBalance(currency?: string, options?: ReadOptions): Promise<readonly AccountBalance[]>;
  positions(symbols?: readonly SecuritySymbol[]): Promise<readonly BrokerPosition[]>;
  estimateBuyLimit(query: BuyLimitQuery, options?: ReadOptions): Promise<BuyLimit>;
  marginRatio(symbol: SecuritySymbol, options?: ReadOptions): Promise<MarginRatio>;
  // The rest of the spec.
  historyOrders(query?: orders.HistoryOrderQuery): Promise<HistoryOrders>;
  /** `POST /v1/trade/order/submit {order_id}`; the service's answer is passed through. */
  submitOrderById(orderId: string): Promise<unknown>;
  todayExecutions(query?: TodayExecutionQuery): Promise<readonly Execution[]>;
  /** Fills of a past range (90 days back by default; today is not included, ask todayExecutions). */
  historyExecutions(query?: HistoryExecutionQuery): Promise<readonly Execution[]>;
  /** Cash and share movements of a time range, a page at a time. */
  cashFlow(query: CashFlowQuery): Promise<readonly CashFlow[]>;
  /** Fund holdings, all or of the given ISINs. */
  fundPositions(symbols?: readonly string[]): Promise<readonly FundPosition[]>;
  watchlist(): Promise<readonly WatchlistGroup[]>;
  createWatchlistGroup(group: NewWatchlistGroup): Promise<{ readonly id: string }>;
  updateWatchlistGroup(update: WatchlistGroupUpdate): Promise<void>;
  /** `purge`: also unfollow the group's securities (otherwise they stay in "All"). */
  deleteWatchlistGroup(id: string | number, purge?: boolean): Promise<void>;
  securities(query: SecurityListQuery): Promise<readonly Security[]>;
  marketTemperature(market: Market): Promise<MarketTemperature>;
  /** Readings of the days from `from` to `to` (YYYY-MM-DD). */
  historyMarketTemperature(market: Market, from: string, to: string): Promise<TemperatureHistory>;
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
  /** Any signed call, like the SDK's HttpClient.request: the envelope's `data` (writes are never repeated). */
  request(request: RawRequest): Promise<unknown>;
  /** Closes the connection pool; pending rate-limited calls fail, calls in flight too with `abortInFlight`. */
  close(options?: CloseOptions): Promise<void>;
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
    accountBalance: (currency, options) => asset.accountBalance(transport, currency, options),
    positions: (symbols) => asset.positions(transport, symbols),
    estimateBuyLimit: (query, options) => asset.estimateBuyLimit(transport, query, options),
    marginRatio: (symbol, options) => asset.marginRatio(transport, symbol, options),
    historyOrders: (query) => orders.historyOrders(transport, query),
    submitOrderById: (orderId) => orders.submitOrderById(transport, orderId),
    todayExecutions: (query) => executions.todayExecutions(transport, query),
    historyExecutions: (query) => executions.historyExecutions(transport, query),
    cashFlow: (query) => cashFlows.cashFlow(transport, query),
    fundPositions: (symbols) => cashFlows.fundPositions(transport, symbols),
    watchlist: () => watchlists.watchlist(transport),
    createWatchlistGroup: (group) => watchlists.createWatchlistGroup(transport, group),
    updateWatchlistGroup: (update) => watchlists.updateWatchlistGroup(transport, update),
    deleteWatchlistGroup: (id, purge) => watchlists.deleteWatchlistGroup(transport, id, purge),
    securities: (query) => securities.securities(transport, query),
    marketTemperature: (market) => temperature.marketTemperature(transport, market),
    historyMarketTemperature: (market, from, to) => temperature.historyMarketTemperature(transport, market, from, to),
    statements: (query) => statement.statements(transport, query),
    statementDownloadUrl: (fileKey) => statement.statementDownloadUrl(transport, fileKey),
    myTopics: (query) => content.myTopics(transport, query),
    createTopic: (topic) => content.createTopic(transport, topic),
    topicDetail: (id) => content.topicDetail(transport, id),
    topicReplies: (topicId, query) => content.topicReplies(transport, topicId, query),
    createTopicReply: (topicId, reply) => content.createTopicReply(transport, topicId, reply),
    refreshToken: (expiresAt) => token.refreshToken(transport, expiresAt),
    socketToken: () => token.socketToken(transport),
    request: (request) => rawRequest(transport, request),
    close: (options) => transport.close(options),
  };
}

function rawRequest(transport: ReturnType<typeof createTransport>, request: RawRequest): Promise<unknown> {
  const mark = request.path.indexOf('?');
  const path = mark < 0 ? request.path : request.path.slice(0, mark);
  return transport.call({
    method: request.method,
    path,
    ...(mark < 0 ? {} : { rawQuery: request.path.slice(mark + 1) }),
    ...(request.headers === undefined ? {} : { headers: request.headers }),
    ...(request.body === undefined ? {} : { body: request.body }),
  });
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
