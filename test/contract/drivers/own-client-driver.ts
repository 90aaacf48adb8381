// The contract driver over our own clients: the HTTP client (createOpenApiHttp), QuoteClient and TradeClient,
// configured from the simulator's LONGPORT_* variables as `trader` reads them.
import type { Subscription } from 'rxjs';
import type { Candle } from '../../../src/domain/candle.js';
import type { FixedPoint } from '../../../src/domain/fixed-point.js';
import { parseSymbol } from '../../../src/domain/symbol.js';
import type { QuoteClient } from '../../../src/openapi/socket/quote-client.js';
import type { SimHarness } from '../../support/sim/harness.js';
import { serverHolds } from '../../support/sim/server-holds.js';
import type { Bar, DriverOrder, OrderPush, QuotePush, SimulatorDriver } from '../driver.js';
import { Pushes } from '../pushes.js';
import { Price, Quantity } from '../../../src/domain/index.js';

const text = (value: FixedPoint | undefined): string | undefined => value?.toString();

function order(row: {
  orderId: string;
  status: string;
  symbol: string;
  side: 'Buy' | 'Sell';
  quantity: FixedPoint;
  executedQuantity: FixedPoint;
  price: FixedPoint | undefined;
  executedPrice: FixedPoint | undefined;
  remark: string;
}): DriverOrder {
  return {
    orderId: row.orderId,
    status: row.status,
    symbol: row.symbol,
    side: row.side,
    quantity: row.quantity.toFixed(),
    executedQuantity: row.executedQuantity.toFixed(),
    price: text(row.price),
    executedPrice: text(row.executedPrice),
    remark: row.remark,
  };
}

const bar = (candle: Candle): Bar => ({
  time: candle.time,
  open: Price.of(candle.open).toString(),
  close: Price.of(candle.close).toString(),
  volume: candle.volume,
});

export async function ownClientDriver(h: SimHarness): Promise<SimulatorDriver> {
  const http = h.http;
  const quotes: QuoteClient = await h.quoteClient();
  const subscriptions: Subscription[] = [];
  const orderPushes = new Pushes<OrderPush>();
  const quotePushes = new Pushes<QuotePush>();
  return {
    async balance(currency) {
      const [row] = await http.accountBalance(currency);
      return { totalCash: row!.totalCash.toFixed(), netAssets: row!.netAssets.toFixed(), buyPower: row!.buyPower.toFixed() };
    },
    positions: async () =>
      (await http.positions()).map((row) => ({
        symbol: row.symbol,
        quantity: row.quantity.toFixed(),
        availableQuantity: row.availableQuantity.toFixed(),
        costPrice: row.costPrice.toFixed(),
      })),
    async submit(request) {
      const { orderId } = await http.submitOrder({
        symbol: parseSymbol(request.symbol),
        side: request.side,
        orderType: request.type,
        quantity: Quantity.of(request.quantity),
        timeInForce: 'Day',
        ...(request.price === undefined ? {} : { price: Price.of(request.price) }),
        ...(request.remark === undefined ? {} : { remark: request.remark }),
      });
      return orderId;
    },
    replace: (orderId, quantity, price) => http.replaceOrder(orderId, { quantity: Quantity.of(quantity), price: Price.of(price) }),
    cancel: (orderId) => http.cancelOrder(orderId),
    todayOrders: async () => (await http.todayOrders()).map(order),
    async orderDetail(orderId) {
      const detail = await http.orderDetail(orderId);
      return { ...order(detail), history: detail.history.map((entry) => entry.status) };
    },
    async buyLimit(symbol, price) {
      const answer = await http.estimateBuyLimit({ symbol: parseSymbol(symbol), orderType: 'LO', side: 'Buy', price: Price.of(price) });
      return { cash: answer.cashMaxQty.toFixed(), margin: answer.marginMaxQty.toFixed() };
    },
    async marginRatio(symbol) {
      const ratio = await http.marginRatio(parseSymbol(symbol));
      return { im: ratio.imFactor.toFixed(), mm: ratio.mmFactor.toFixed(), fm: ratio.fmFactor.toFixed() };
    },
    watchlist: async () =>
      (await http.watchlist()).map((group) => ({ name: group.name, symbols: group.securities.map((security) => security.symbol) })),
    async watchOrders() {
      const trade = h.tradeClient();
      subscriptions.push(
        trade.orderUpdates().subscribe((update) =>
          orderPushes.add({
            orderId: update.orderId,
            status: update.status,
            executedQuantity: update.executedQuantity.toFixed(),
            lastShare: text(update.lastShare),
            lastPrice: text(update.lastPrice),
          }),
        ),
      );
      await trade.open();
    },
    orderPushes,
    async watchQuotes(symbols) {
      const wanted = symbols.map((symbol) => parseSymbol(symbol));
      subscriptions.push(
        quotes
          .quotes(wanted)
          .subscribe((quote) => quotePushes.add({ symbol: quote.symbol, lastDone: quote.lastDone.toFixed(), volume: quote.volume })),
      );
      for (const symbol of wanted) await serverHolds(quotes, symbol);
    },
    quotePushes,
    staticInfo: async (symbols) =>
      (await quotes.staticInfo(symbols.map((symbol) => parseSymbol(symbol)))).map((info) => ({
        symbol: info.symbol,
        name: info.nameEn,
        lotSize: info.lotSize,
        currency: info.currency,
      })),
    quote: async (symbols) =>
      (await quotes.quote(symbols.map((symbol) => parseSymbol(symbol)))).map((row) => ({
        symbol: row.symbol,
        lastDone: row.lastDone.toFixed(),
        prevClose: row.prevClose.toFixed(),
        volume: row.volume,
      })),
    historyByDate: async (symbol, from, to) => (await quotes.historyByDate(parseSymbol(symbol), '1m', from, to)).map(bar),
    latestHistory: async (symbol, count) =>
      (await quotes.historyByOffset(parseSymbol(symbol), '1m', { direction: 'backward', count })).map(bar),
    tradingDays: async (market, from, to) => [...(await quotes.tradingDays(market, from, to)).tradingDays],
    async close() {
      for (const subscription of subscriptions) subscription.unsubscribe();
    },
  };
}
