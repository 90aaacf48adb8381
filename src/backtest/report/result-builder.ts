// Builds the `--json` document (BacktestResult) from a finished run: metrics, fills, trades, open positions.
import { ratioOf } from '../../domain/decimal.js';
import type { FixedPoint } from '../../domain/fixed-point.js';
import { Money } from '../../domain/money.js';
import { Price } from '../../domain/price.js';
import { Quantity } from '../../domain/quantity.js';
import { timeZoneOf } from '../../domain/market-hours.js';
import { marketOf, type SecuritySymbol } from '../../domain/symbol.js';
import { barFields } from '../bar-history.js';
import { barLocator } from '../metrics/bar-index.js';
import { computeMetrics } from '../metrics/compute.js';
import { CASH_IN_LIEU, pairTrades, type OpenLot } from '../metrics/trades.js';
import type { OrderIntent } from '../../domain/intent.js';
import type {
  BacktestRecord,
  BacktestResult,
  DenialRecord,
  FillRecord,
  MetricsOptions,
  OpenPositionRecord,
  ResultView,
  TradeRecord,
} from '../result.js';
import { jsonChunks, MadeList } from './json-chunks.js';
import { localTime, type LocalTime } from './local-time.js';
import { pricePlaces } from './price-places.js';
import { runTimeZone } from '../run-zone.js';

/** The `--json` document with its fills and trades made as they are written (see resultJsonChunks). */
export type ResultDocument = Omit<BacktestResult, 'fills' | 'trades'> & {
  readonly fills: MadeList<FillRecord>;
  readonly trades: MadeList<TradeRecord>;
};

/** The whole `--json` document of a run; `options` tune sharpe and sortino (risk-free rate, bars per year). */
export function buildResult(record: BacktestRecord, options: MetricsOptions = {}): BacktestResult {
  const document = resultDocument(record, options);
  return { ...document, fills: document.fills.toArray(), trades: document.trades.toArray() };
}

/** buildResult, its fills and trades rows made only when read. */
export function resultDocument(record: BacktestRecord, options: MetricsOptions = {}): ResultDocument {
  const symbols = [...record.bars.keys()];
  const zone = runTimeZone(record);
  const runTime = localTime(zone);
  const symbolTimes = new Map<SecuritySymbol, LocalTime>();
  const timeOf = (symbol: SecuritySymbol): LocalTime => {
    let time = symbolTimes.get(symbol);
    if (time === undefined) {
      time = localTime(timeZoneOf(marketOf(symbol)));
      symbolTimes.set(symbol, time);
    }
    return time;
  };
  const tags = record.orderTags;
  const tagOf = (orderId: string): string | null => tags?.get(orderId) ?? null;
  const ledger = pairTrades(record.fills, record.carry);
  const locate = barLocator(record.bars);
  const barsHeld = ledger.closed.map((trade) => Math.max(0, locate(trade.symbol, trade.exitTime) - locate(trade.symbol, trade.entryTime)));
  const times = record.equity.times;

  const failures = record.failures ?? [];
  const activity = record.activity;
  const denialsByCode = activity.denialsByCode;

  return {
    version: 1,
    status: failures.length === 0 ? 'completed' : 'failed',
    strategy: record.strategy,
    symbols,
    period: record.strategyPeriod ?? record.period,
    dataPeriod: record.period,
    currency: record.currency,
    initialCash: text(record.initialCash),
    timeZone: zone,
    start: times.length === 0 ? null : runTime.iso(times[0]!),
    end: times.length === 0 ? null : runTime.iso(times[times.length - 1]!),
    settings: { ...record.settings },
    pricePlaces: Object.fromEntries([...record.bars].map(([symbol, bars]) => [symbol, pricePlaces(bars)])),
    failures: failures.map(({ strategy, source, failure }) => ({
      strategy,
      source,
      error: failure.error,
      location: failure.location === undefined ? null : { ...failure.location },
      bar:
        failure.bar === undefined
          ? null
          : {
              symbol: failure.bar.symbol,
              period: failure.bar.period,
              time: timeOf(failure.bar.symbol).iso(failure.bar.time),
              index: failure.bar.index,
            },
    })),
    metrics: computeMetrics({ record, ledger, barsHeld, formatTime: runTime.iso }, options),
    counts: {
      intents: activity.intents,
      orders: activity.orders,
      fills: record.fills.length,
      denials: Object.values(denialsByCode).reduce((sum, count) => sum + count, 0),
    },
    denialsByCode: { ...denialsByCode },
    denials: activity.denials.map((denial) => ({
      time: runTime.iso(denial.time),
      strategy: denial.strategy,
      code: denial.code,
      message: denial.message,
      intent: intentRecord(denial.intent),
      figures: { ...denial.figures },
    })),
    fills: new MadeList(record.fills.length, (index) => {
      const fill = record.fills[index]!;
      return {
        fillId: fill.fillId,
        orderId: fill.orderId,
        symbol: fill.symbol,
        side: fill.side,
        quantity: text(fill.quantity),
        price: text(fill.price),
        commission: text(fill.commission),
        time: timeOf(fill.symbol).iso(fill.time),
        tag: tagOf(fill.orderId),
      };
    }),
    trades: new MadeList(ledger.closed.length, (index) => {
      const trade = ledger.closed[index]!;
      return {
        symbol: trade.symbol,
        side: trade.side,
        quantity: text(trade.quantity),
        entryTime: timeOf(trade.symbol).iso(trade.entryTime),
        entryPrice: text(trade.entryPrice),
        exitTime: timeOf(trade.symbol).iso(trade.exitTime),
        exitPrice: text(trade.exitPrice),
        commission: text(trade.commission),
        dividends: text(trade.dividends),
        borrowFees: text(trade.borrowFees),
        pnl: text(trade.pnl),
        return: trade.cost.isZero() ? 0 : ratioOf(trade.pnl, trade.cost),
        barsHeld: barsHeld[index]!,
        entryTag: tagOf(trade.entryOrderId),
        exitTag: trade.exitOrderId === CASH_IN_LIEU ? CASH_IN_LIEU : tagOf(trade.exitOrderId),
      };
    }),
    openPositions: openPositions(record, ledger.open),
  };
}

function intentRecord(intent: OrderIntent): DenialRecord['intent'] {
  return {
    kind: intent.kind,
    symbol: intent.symbol ?? null,
    side: intent.kind === 'order' ? intent.side : null,
    quantity: intent.kind === 'order' || intent.kind === 'target' ? intent.quantity.toFixed() : null,
  };
}

/** The `--json` text (see writeResultJson for writing it without holding it whole). */
export function formatResultJson(result: BacktestResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}

/** The `--json` text in pieces, the same text as formatResultJson. */
export function resultJsonChunks(result: BacktestResult | ResultDocument | (ResultView & Pick<ResultDocument, 'fills'>)): Iterable<string> {
  return jsonChunks(result as unknown as Record<string, unknown>);
}

function openPositions(record: BacktestRecord, lots: readonly OpenLot[]): OpenPositionRecord[] {
  const bySymbol = new Map<SecuritySymbol, OpenLot[]>();
  for (const lot of lots) bySymbol.set(lot.symbol, [...(bySymbol.get(lot.symbol) ?? []), lot]);
  return [...bySymbol].map(([symbol, symbolLots]) => {
    const history = record.bars.get(symbol);
    const closes = history === undefined ? undefined : barFields(history).close;
    const last = closes === undefined || closes.length === 0 ? undefined : closes[closes.length - 1]!;
    const mark = last === undefined ? symbolLots[symbolLots.length - 1]!.entryPrice : Price.of(last);
    const zero = Money.zero(record.currency);
    let quantity = Quantity.ZERO;
    let cost = zero;
    let unrealized = zero;
    let dividends = zero;
    let borrowFees = zero;
    for (const lot of symbolLots) {
      const move = Money.notional(lot.quantity, mark, record.currency).minus(lot.cost);
      quantity = quantity.plus(lot.quantity);
      cost = cost.plus(lot.cost);
      dividends = dividends.plus(lot.dividends);
      borrowFees = borrowFees.plus(lot.borrowFees);
      unrealized = unrealized.plus(lot.side === 'Long' ? move : move.negated()).minus(lot.commission);
    }
    unrealized = unrealized.plus(dividends).minus(borrowFees);
    return {
      symbol,
      side: symbolLots[0]!.side,
      quantity: text(quantity),
      averagePrice: text(Price.average(cost, quantity)),
      markPrice: text(mark),
      dividends: text(dividends),
      borrowFees: text(borrowFees),
      unrealizedPnl: text(unrealized),
    };
  });
}

/**
 * Exact: a figure is written as it is held (an open position's average price is Price.average's, 8 places
 * beyond its cost). Rounding here wrote a price of 0.000011631853918 as 0.0000116319.
 */
function text(value: FixedPoint): string {
  return value.toString();
}
