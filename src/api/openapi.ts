// `longport-trader/openapi`: clients of the LongPort OpenAPI. The signed HTTP client, the quote and trade
// WebSocket clients, and the Broker over both (what `trader run --live` trades through).
export * from '../openapi/http/index.js';
export * from '../openapi/broker/index.js';
export { QuoteClient, type CandleQuery, type OffsetQuery, type QuoteClientOptions } from '../openapi/socket/quote-client.js';
export { TradeClient } from '../openapi/socket/trade-client.js';
export { leaseQuoteClient, type QuoteLease } from '../openapi/socket/shared-quote-client.js';
export { SocketConnection, type ConnectionOptions } from '../openapi/socket/connection.js';
