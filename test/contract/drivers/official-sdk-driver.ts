// The contract driver over the official LongPort SDK (longport@3.0.18, unmodified), configured with the
// simulator's three URLs and credentials exactly as a user would (PROTOCOL.md §6).
import { Config, Decimal as SdkDecimal, NaiveDate, QuoteContext, TradeContext, type OrderSide, type OrderStatus } from 'longport';
import { Decimal } from '../../../src/domain/decimal.js';
import type { SimHarness } from '../../support/sim/harness.js';
import type { Bar, DriverOrder, OrderPush, QuotePush, SimulatorDriver } from '../driver.js';
import { Pushes } from '../pushes.js';
import {
  SDK_DAY_ORDER as DAY,
  SDK_INTRADAY as INTRADAY,
  SDK_MARKET as MARKETS,
  SDK_NO_ADJUST as NO_ADJUST,
  SDK_ORDER_TYPE as TYPES,
  SDK_PERIOD,
  SDK_PRIVATE_TOPIC as PRIVATE,
  SDK_QUOTE_SUB as QUOTE,
  SDK_SIDE as SIDES,
} from '../../support/sdk-enums.js';

const ONE_MINUTE = SDK_PERIOD.OneMinute;
/** OrderStatus by its SDK number, as the wire names it. */
const STATUS_NAMES = [
  'Unknown',
  'NotReported',
  'ReplacedNotReported',
  'ProtectedNotReported',
  'VarietiesNotReported',
  'FilledStatus',
  'WaitToNew',
  'NewStatus',
  'WaitToReplace',
  'PendingReplaceStatus',
  'ReplacedStatus',
  'PartialFilledStatus',
  'WaitToCancel',
  'PendingCancelStatus',
  'RejectedStatus',
  'CanceledStatus',
  'ExpiredStatus',
  'PartialWithdrawal',
];

const text = (value: { toString(): string }): string => new Decimal(value.toString()).toFixed();
const optional = (value: { toString(): string } | null | undefined): string | undefined =>
  value === null || value === undefined ? undefined : text(value);
const status = (value: OrderStatus): string => STATUS_NAMES[value as number] ?? `unknown ${value as number}`;
const date = (iso: string): NaiveDate => {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return new NaiveDate(year, month, day);
};

interface SdkOrder {
  readonly orderId: string;
  readonly status: OrderStatus;
  readonly symbol: string;
  readonly side: OrderSide;
  readonly quantity: { toString(): string };
  readonly executedQuantity: { toString(): string };
  readonly price: { toString(): string } | null;
  readonly executedPrice: { toString(): string } | null;
  readonly remark: string;
}

function order(row: SdkOrder): DriverOrder {
  return {
    orderId: row.orderId,
    status: status(row.status),
    symbol: row.symbol,
    side: row.side === SIDES.Buy ? 'Buy' : 'Sell',
    quantity: text(row.quantity),
    executedQuantity: text(row.executedQuantity),
    price: optional(row.price),
    executedPrice: optional(row.executedPrice),
    remark: row.remark,
  };
}

function bar(candle: {
  readonly timestamp: Date;
  readonly open: { toString(): string };
  readonly close: { toString(): string };
  readonly volume: number;
}): Bar {
  return { time: candle.timestamp.getTime(), open: text(candle.open), close: text(candle.close), volume: candle.volume };
}

export async function officialSdkDriver({ sim }: SimHarness): Promise<SimulatorDriver> {
  const config = new Config({
    appKey: sim.credentials.appKey,
    appSecret: sim.credentials.appSecret,
    accessToken: sim.credentials.accessToken,
    httpUrl: sim.httpUrl,
    quoteWsUrl: sim.quoteWsUrl,
    tradeWsUrl: sim.tradeWsUrl,
    enablePrintQuotePackages: false,
  });
  const trade = await TradeContext.new(config);
  const quote = await QuoteContext.new(config);
  const orderPushes = new Pushes<OrderPush>();
  const quotePushes = new Pushes<QuotePush>();
  return {
    async balance(currency) {
      const [row] = await trade.accountBalance(currency);
      return { totalCash: text(row!.totalCash), netAssets: text(row!.netAssets), buyPower: text(row!.buyPower) };
    },
    async positions() {
      const response = await trade.stockPositions();
      return response.channels.flatMap((channel) =>
        channel.positions.map((row) => ({
          symbol: row.symbol,
          quantity: text(row.quantity),
          availableQuantity: text(row.availableQuantity),
          costPrice: text(row.costPrice),
        })),
      );
    },
    async submit(request) {
      const response = await trade.submitOrder({
        symbol: request.symbol,
        orderType: TYPES[request.type],
        side: SIDES[request.side],
        submittedQuantity: new SdkDecimal(request.quantity),
        timeInForce: DAY,
        ...(request.price === undefined ? {} : { submittedPrice: new SdkDecimal(request.price) }),
        ...(request.remark === undefined ? {} : { remark: request.remark }),
      });
      return response.orderId;
    },
    replace: (orderId, quantity, price) =>
      trade.replaceOrder({ orderId, quantity: new SdkDecimal(quantity), price: new SdkDecimal(price) }).then(() => undefined),
    cancel: (orderId) => trade.cancelOrder(orderId).then(() => undefined),
    todayOrders: async () => (await trade.todayOrders()).map(order),
    async orderDetail(orderId) {
      const detail = await trade.orderDetail(orderId);
      return { ...order(detail), history: detail.history.map((entry) => status(entry.status)) };
    },
    async buyLimit(symbol, price) {
      const answer = await trade.estimateMaxPurchaseQuantity({
        symbol,
        orderType: TYPES.LO,
        side: SIDES.Buy,
        price: new SdkDecimal(price),
        fractionalShares: false,
      });
      return { cash: text(answer.cashMaxQty), margin: text(answer.marginMaxQty) };
    },
    async marginRatio(symbol) {
      const ratio = await trade.marginRatio(symbol);
      return { im: text(ratio.imFactor), mm: text(ratio.mmFactor), fm: text(ratio.fmFactor) };
    },
    watchlist: async () =>
      (await quote.watchlist()).map((group) => ({ name: group.name, symbols: group.securities.map((security) => security.symbol) })),
    async watchOrders() {
      trade.setOnOrderChanged((_error, event) =>
        orderPushes.add({
          orderId: event.orderId,
          status: status(event.status),
          executedQuantity: text(event.executedQuantity),
          lastShare: optional(event.lastShare),
          lastPrice: optional(event.lastPrice),
        }),
      );
      await trade.subscribe([PRIVATE]);
    },
    orderPushes,
    async watchQuotes(symbols) {
      quote.setOnQuote((_error, event) =>
        quotePushes.add({ symbol: event.symbol, lastDone: text(event.data.lastDone), volume: event.data.volume }),
      );
      await quote.subscribe([...symbols], [QUOTE], true);
    },
    quotePushes,
    staticInfo: async (symbols) =>
      (await quote.staticInfo([...symbols])).map((info) => ({
        symbol: info.symbol,
        name: info.nameEn,
        lotSize: info.lotSize,
        currency: info.currency,
      })),
    quote: async (symbols) =>
      (await quote.quote([...symbols])).map((row) => ({
        symbol: row.symbol,
        lastDone: text(row.lastDone),
        prevClose: text(row.prevClose),
        volume: row.volume,
      })),
    historyByDate: async (symbol, from, to) =>
      (await quote.historyCandlesticksByDate(symbol, ONE_MINUTE, NO_ADJUST, date(from), date(to), INTRADAY)).map(bar),
    latestHistory: async (symbol, count) =>
      (await quote.historyCandlesticksByOffset(symbol, ONE_MINUTE, NO_ADJUST, false, null, count, INTRADAY)).map(bar),
    tradingDays: async (market, from, to) => (await quote.tradingDays(MARKETS[market], date(from), date(to))).tradingDays.map(String),
    // The SDK's contexts have no close: they go when the test process ends.
    close: async () => undefined,
  };
}
