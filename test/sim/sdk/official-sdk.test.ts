// The official SDK (longport@3.0.18) beyond the contract suite: its own retry of plain-text 429s, session
// resume after a dropped link, token refresh, and the quote and trade calls the contract does not cover.
import { Config, Decimal as SdkDecimal, NaiveDate, QuoteContext, TradeContext } from 'longport';
import { afterEach, describe, expect, it } from 'vitest';
import type { Simulator } from '../../../src/sim/server/index.js';
import { HK, localInstant } from '../../support/sim/candles.js';
import { startSimHarness, type SimHarness } from '../../support/sim/harness.js';
import { captureLogger } from '../../support/http/client-harness.js';
import { Pushes } from '../../contract/pushes.js';
import {
  SDK_DAY_ORDER as DAY,
  SDK_INTRADAY as INTRADAY,
  SDK_MARKET,
  SDK_ORDER_TYPE,
  SDK_QUOTE_SUB as QUOTE,
  SDK_SIDE,
} from '../../support/sdk-enums.js';

const HK_MARKET = SDK_MARKET.HK;
const BUY = SDK_SIDE.Buy;
const MARKET_ORDER = SDK_ORDER_TYPE.MO;

let h: SimHarness;

afterEach(async () => {
  await h.close();
});

function sdkConfig(sim: Simulator, accessToken = sim.credentials.accessToken): Config {
  return new Config({
    appKey: sim.credentials.appKey,
    appSecret: sim.credentials.appSecret,
    accessToken,
    httpUrl: sim.httpUrl,
    quoteWsUrl: sim.quoteWsUrl,
    tradeWsUrl: sim.tradeWsUrl,
    enablePrintQuotePackages: false,
  });
}

/** Resolves once `condition` holds, checked between I/O events. */
function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    // A real-time guard so a broken test fails instead of hanging; never part of the behaviour tested.
    const deadline = setTimeout(() => reject(new Error('condition not met in time')), timeoutMs);
    const check = (): void => {
      if (condition()) {
        clearTimeout(deadline);
        resolve();
      } else setImmediate(check);
    };
    check();
  });
}

describe('the official SDK against the simulator', () => {
  it('retries the injected plain-text 429s itself and gets its answer', async () => {
    const capture = captureLogger();
    h = await startSimHarness({ faults: { http429Rate: 0.5 }, seed: 3, logger: capture.logger });
    const trade = await TradeContext.new(sdkConfig(h.sim));
    const balances = await trade.accountBalance();
    expect(balances.map((balance) => balance.currency)).toEqual(['HKD', 'USD']);
    expect(capture.text().match(/injected fault/g)?.length ?? 0).toBeGreaterThan(0);
  });

  it('resumes its session after the link drops and keeps receiving quote pushes', async () => {
    h = await startSimHarness({ faults: { socketDropAfterPushes: 2 } });
    const quote = await QuoteContext.new(sdkConfig(h.sim));
    const pushes = new Pushes<number>();
    quote.setOnQuote((_error, event) => pushes.add(event.data.timestamp.getTime()));
    await quote.subscribe([HK], [QUOTE], false);
    const ticks = [h.stepUntil((tick) => tick.symbol === HK), h.stepUntil((tick) => tick.symbol === HK)];
    await pushes.next((time) => time === Math.floor(ticks[1]!.time / 1000) * 1000);
    await until(() =>
      h.sim
        .connections()
        .some((connection) => connection.kind === 'quote' && connection.pushesSent === 0 && connection.symbols.includes(HK)),
    );
    const [resumed] = h.sim.connections().filter((connection) => connection.kind === 'quote');
    expect(resumed).toMatchObject({ authenticated: true, resumed: true });
    const later = h.stepUntil((tick) => tick.symbol === HK);
    await pushes.next((time) => time === Math.floor(later.time / 1000) * 1000);
  });

  it('refreshes its access token and works with the new one', async () => {
    h = await startSimHarness();
    const token = await sdkConfig(h.sim).refreshAccessToken(new Date(h.clock.now() + 30 * 86_400_000));
    expect(token).not.toBe(h.sim.credentials.accessToken);
    const trade = await TradeContext.new(sdkConfig(h.sim, token));
    expect((await trade.accountBalance('USD')).length).toBe(1);
  });

  it('reads depth, trades, intraday lines, sessions, capital flow and distribution, and the security list', async () => {
    h = await startSimHarness({ venue: { stockNames: { '700.HK': 'TENCENT' } } });
    h.stepUntil((tick) => tick.symbol === HK && tick.time >= localInstant(HK, '2024-01-02', 9, 32));
    const quote = await QuoteContext.new(sdkConfig(h.sim));
    const depth = await quote.depth(HK);
    expect([depth.asks.length, depth.bids.length]).toEqual([5, 5]);
    expect((await quote.trades(HK, 3)).length).toBe(3);
    expect((await quote.intraday(HK, INTRADAY)).map((line) => line.timestamp.getTime())).toEqual(
      [30, 31, 32].map((minute) => localInstant(HK, '2024-01-02', 9, minute)),
    );
    const sessions = await quote.tradingSession();
    expect(sessions.find((market) => market.market === HK_MARKET)?.tradeSessions.length).toBe(2);
    expect((await quote.capitalFlow(HK)).length).toBe(3);
    const distribution = await quote.capitalDistribution(HK);
    expect(distribution.capitalIn.large.toNumber()).toBeGreaterThan(0);
    expect((await quote.securityList(HK_MARKET, 0 as never)).map((security) => [security.symbol, security.nameEn])).toEqual([
      ['700.HK', 'TENCENT'],
    ]);
    const days = await quote.tradingDays(HK_MARKET, new NaiveDate(2024, 1, 2), new NaiveDate(2024, 1, 4));
    expect(days.tradingDays.map(String)).toEqual(['2024-01-02', '2024-01-03', '2024-01-04']);
  });

  it("reads today's executions and history orders after a fill", async () => {
    h = await startSimHarness();
    h.stepUntil((tick) => tick.symbol === HK);
    const trade = await TradeContext.new(sdkConfig(h.sim));
    const { orderId } = await trade.submitOrder({
      symbol: HK,
      orderType: MARKET_ORDER,
      side: BUY,
      submittedQuantity: new SdkDecimal('100'),
      timeInForce: DAY,
    });
    h.step();
    const executions = await trade.todayExecutions();
    expect(executions.map((execution) => [execution.orderId, execution.quantity.toString()])).toEqual([[orderId, '100']]);
    expect((await trade.historyOrders()).map((order) => order.orderId)).toEqual([orderId]);
  });
});
