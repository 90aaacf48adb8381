// The backtest's fill, cost, cash and equity semantics, pinned on small hand-checked series (README
// "Backtest semantics"). Each expectation is worked out by hand in the comment beside it.
import { describe, expect, it } from 'vitest';
import { buildResult } from '../../src/backtest/report/result-builder.js';
import { AAPL, TENCENT, backtest, dayBar, dayTime, localTime, scripted, type ScriptContext } from '../support/backtest/scripted.js';
import { Fixed, parseSymbol } from '../../src/domain/index.js';

const D1 = dayBar(AAPL, '2024-01-02', 100, 102, 99, 101);
const D2 = dayBar(AAPL, '2024-01-03', 101.5, 103, 100.5, 102);
const D3 = dayBar(AAPL, '2024-01-04', 102.5, 104, 95, 96);
const D4 = dayBar(AAPL, '2024-01-05', 97, 98, 94, 95);
const BARS = [D1, D2, D3, D4];
const MSFT = parseSymbol('MSFT.US');

function fillRows(
  run: Awaited<ReturnType<typeof backtest>>,
): { bar: number; side: string; quantity: string; price: string; commission: string }[] {
  return run.record.fills.map((fill) => ({
    bar: BARS.findIndex((bar, index) => bar.time <= fill.time && (BARS[index + 1]?.time ?? Number.POSITIVE_INFINITY) > fill.time),
    side: fill.side,
    quantity: fill.quantity.toFixed(),
    price: fill.price.toFixed(),
    commission: fill.commission.toFixed(),
  }));
}

describe('backtest semantics', () => {
  it('fills a market order decided on bar t at the open of bar t+1, with commission on the traded value', async () => {
    const strategy = scripted([AAPL], { 0: (ctx) => ctx.buy(100), 1: (ctx) => ctx.close() });

    const run = await backtest([BARS], [strategy], { venue: { fees: { commissionRate: 0.001 } } });

    // Buy decided on D1 → D2 open 101.5, 0.1 % of 10,150 = 10.15; sell decided on D2 → D3 open 102.5, 0.1 % of 10,250.
    expect(fillRows(run)).toEqual([
      { bar: 1, side: 'Buy', quantity: '100', price: '101.5', commission: '10.15' },
      { bar: 2, side: 'Sell', quantity: '100', price: '102.5', commission: '10.25' },
    ]);
    expect(run.record.fills[0]!.time).toBe(dayTime(AAPL, '2024-01-03'));
  });

  it('with --fill close, fills a market order at the close of the bar it was decided on', async () => {
    const strategy = scripted([AAPL], { 0: (ctx) => ctx.buy(100), 2: (ctx) => ctx.close() });

    const run = await backtest([BARS], [strategy], { venue: { fillModel: 'close' } });

    expect(fillRows(run)).toEqual([
      { bar: 0, side: 'Buy', quantity: '100', price: '101', commission: '0' },
      { bar: 2, side: 'Sell', quantity: '100', price: '96', commission: '0' },
    ]);
    // The decision instant: the end of the regular session on the bar's date.
    expect(run.record.fills[0]!.time).toBe(localTime(AAPL, '2024-01-02 16:00'));
  });

  it('fills a limit order on a later bar whose range reaches the limit, at the better of the open and the limit', async () => {
    const strategy = scripted([AAPL], {
      // Buy 100 at 100: D2's low 100.5 misses it; D3 opens at 102.5 and trades down to 95 → filled at 100.
      0: (ctx) => ctx.buy(100, { price: 100, timeInForce: 'GTC' }),
      // Buy 10 at 103: D4 opens at 97, below the limit → filled at the open, 97.
      2: (ctx) => ctx.buy(10, { price: 103, timeInForce: 'GTC' }),
    });

    const run = await backtest([BARS], [strategy]);

    expect(fillRows(run)).toEqual([
      { bar: 2, side: 'Buy', quantity: '100', price: '100', commission: '0' },
      { bar: 3, side: 'Buy', quantity: '10', price: '97', commission: '0' },
    ]);
  });

  it('never fills an order that is still open after the last bar, and values the open position at the last close', async () => {
    const strategy = scripted([AAPL], { 1: (ctx) => ctx.buy(100), 3: (ctx) => ctx.buy(50) });

    const run = await backtest([BARS], [strategy]);
    const result = buildResult(run.record);

    expect(fillRows(run)).toEqual([{ bar: 2, side: 'Buy', quantity: '100', price: '102.5', commission: '0' }]);
    expect(run.summary.openOrders).toBe(1);
    // 1,000,000 − 100 × 102.5 + 100 × 95 (last close)
    expect(result.metrics.finalEquity).toBe(999_250);
    expect(result.openPositions).toEqual([
      {
        symbol: 'AAPL.US',
        side: 'Long',
        quantity: '100',
        averagePrice: '102.5',
        markPrice: '95',
        dividends: '0',
        borrowFees: '0',
        unrealizedPnl: '-750',
      },
    ]);
  });

  it('marks equity at every bar close: cash plus positions at the close', async () => {
    const strategy = scripted([AAPL], { 0: (ctx) => ctx.buy(100) });

    const run = await backtest([BARS], [strategy]);

    // D1 flat; bought 100 at 101.5 on D2 → cash 989,850, then + 100 × close.
    expect(Array.from(run.record.equity.times)).toEqual(BARS.map((bar) => bar.time));
    expect(Array.from(run.record.equity.equity)).toEqual([1_000_000, 1_000_050, 999_450, 999_350]);
    expect(Array.from(run.record.equity.exposed)).toEqual([0, 1, 1, 1]);
  });

  it('moves market fills against the order by the slippage in basis points', async () => {
    const strategy = scripted([AAPL], { 0: (ctx) => ctx.buy(100), 1: (ctx) => ctx.close() });

    const run = await backtest([BARS], [strategy], { venue: { slippageBps: 10 } });

    // 101.5 × 1.001 and 102.5 × 0.999
    expect(fillRows(run).map((row) => row.price)).toEqual(['101.6015', '102.3975']);
  });

  it('gives the strategy cash and equity net of the fees its fills paid, so sizing after a round trip sees them', async () => {
    const seen: string[] = [];
    const strategy = scripted([AAPL], {
      0: (ctx) => ctx.buy(100),
      1: (ctx) => ctx.close(),
      3: (ctx) => {
        seen.push(ctx.account.cash().toFixed(), ctx.equity().toFixed());
        return undefined;
      },
    });

    await backtest([BARS], [strategy], { venue: { fees: { commissionRate: 0.001 } } });

    // 1,000,000 − 10,150 − 10.15 + 10,250 − 10.25: the two commissions were missing until the next buy's figures.
    expect(seen).toEqual(['1000079.6', '1000079.6']);
  });

  it('charges the US stock fee schedule per order', async () => {
    const strategy = scripted([AAPL], { 0: (ctx) => ctx.buy(100), 1: (ctx) => ctx.close() });

    const run = await backtest([BARS], [strategy], { venue: { fees: 'us-stock' } });

    // Buy: platform fee 100 × 0.005 = 0.50, minimum 1.00. Sell 10,250: platform 1.00, SEC 10,250 × 0.0000278 =
    // 0.28495 → 0.29 (up to the cent), FINRA TAF 100 × 0.000166 = 0.0166 → 0.02.
    expect(fillRows(run).map((row) => row.commission)).toEqual(['1', '1.31']);
  });

  it('charges the Hong Kong stock fee schedule per order', async () => {
    const bars = [dayBar(TENCENT, '2024-01-02', 300, 302, 299, 301), dayBar(TENCENT, '2024-01-03', 301, 303, 300, 302)];
    const strategy = scripted([TENCENT], { 0: (ctx) => ctx.buy(100) });

    const run = await backtest([bars], [strategy], { venue: { fees: 'hk-stock' } });

    // 30,100 traded: platform 15, stamp duty 30.1 → 31 (up to the dollar), SFC 0.8127 → 0.81, HKEX 1.70065 →
    // 1.70, settlement 0.602 → minimum 2, AFRC 0.04515 → 0.05: 50.56.
    expect(run.record.fills.map((fill) => [fill.price.toFixed(), fill.commission.toFixed()])).toEqual([['301', '50.56']]);
  });

  it("walks a bar's range in the chosen intrabar order before deciding whether a stop-limit fills", async () => {
    // Long 100 from D2's open; on D2 a sell stop-limit: triggers when the price falls to 96, sells at 103 or better.
    // D3 (open 102.5, high 104, low 95): high first → the trigger comes on the way down to 95 and 103 is never
    // seen again; low first → triggered on the way down, then the rise to 104 fills it at 103.
    const script = {
      0: (ctx: ScriptContext) => ctx.buy(100),
      1: (ctx: ScriptContext) => ctx.sell(100, { orderType: 'LIT', price: 103, triggerPrice: 96, timeInForce: 'GTC' }),
    };

    const highFirst = await backtest([BARS], [scripted([AAPL], script)], { venue: { intrabarPath: 'high-first' } });
    const lowFirst = await backtest([BARS], [scripted([AAPL], script)], { venue: { intrabarPath: 'low-first' } });

    expect(fillRows(highFirst).filter((row) => row.side === 'Sell')).toEqual([]);
    expect(fillRows(lowFirst).filter((row) => row.side === 'Sell')).toEqual([
      { bar: 2, side: 'Sell', quantity: '100', price: '103', commission: '0' },
    ]);
  });

  it("denies a buy the simulated account cannot pay for, with the venue's buy limit as the figure", async () => {
    const strategy = scripted([AAPL], { 0: (ctx) => ctx.buy(100) });

    const run = await backtest([BARS], [strategy], { cash: 5_000 });

    const denials = run.events.filter((event) => event.type === 'denial');
    // 5,000 / 101 (the close the market order is valued at) → 49 shares at most.
    expect(denials.map((event) => event.type === 'denial' && [event.denial.code, event.denial.figures['cashMaxQty']])).toEqual([
      ['EXCEEDS_BUY_LIMIT', '49'],
    ]);
    expect(run.record.fills).toEqual([]);
    expect(run.denials).toEqual({ EXCEEDS_BUY_LIMIT: 1 });
  });

  it('names denials for what happened: selling while flat, selling more than held, a symbol the venue does not know', async () => {
    const strategy = scripted([AAPL], {
      0: (ctx) => ctx.sell(10),
      1: (ctx) => ctx.buy(100),
      2: (ctx) => [ctx.sell(150), ctx.buy(5, { symbol: 'NOPE.US' })],
    });

    const run = await backtest([BARS], [strategy]);

    const denials = run.events.flatMap((event) => (event.type === 'denial' ? [[event.denial.code, event.denial.message]] : []));
    expect(denials).toEqual([
      ['SHORT_SELLING_NOT_ALLOWED', 'sell 10 AAPL.US: no position, and short selling is not allowed'],
      ['SELL_EXCEEDS_POSITION', 'sell 150 AAPL.US: more than the position of 100 (the account cannot sell short)'],
      ['UNKNOWN_SYMBOL', 'the broker does not know NOPE.US: unknown symbol: no market data for NOPE.US yet'],
    ]);
    expect(run.denials).toEqual({ SHORT_SELLING_NOT_ALLOWED: 1, SELL_EXCEEDS_POSITION: 1, UNKNOWN_SYMBOL: 1 });
  });

  it('names a sell the account may short but has no margin for EXCEEDS_SELL_LIMIT, saying why (--short)', async () => {
    // MSFT at 50 all day, every day: 100 shares take the whole 5,000, and the margin with them.
    const msft = BARS.map((bar) => ({ ...bar, symbol: MSFT, open: 50, high: 50, low: 50, close: 50 }));
    const strategy = scripted([AAPL, MSFT], {
      1: (ctx) => ctx.buy(100, { symbol: MSFT }),
      4: (ctx) => [ctx.sell(10), ctx.sell(150, { symbol: MSFT })],
    });

    const run = await backtest([BARS, msft], [strategy], { cash: 5_000, venue: { shortSelling: true } });

    const denials = run.events.flatMap((event) => (event.type === 'denial' ? [[event.denial.code, event.denial.message]] : []));
    expect(denials).toEqual([
      [
        'EXCEEDS_SELL_LIMIT',
        'sell 10 AAPL.US: the broker lets you sell at most 0 (position 0): short selling is on, but no margin is left for it (buy power 0)',
      ],
      [
        'EXCEEDS_SELL_LIMIT',
        'sell 150 MSFT.US: the broker lets you sell at most 100 (position 100): short selling is on, but no margin is left for it (buy power 0)',
      ],
    ]);
  });

  it('applies the configured risk limits exactly as a live run does', async () => {
    const strategy = scripted([AAPL], { 0: (ctx) => ctx.buy(100), 1: (ctx) => ctx.buy(10) });

    const run = await backtest([BARS], [strategy], { risk: { maxOrderNotional: Fixed.of(5_000) } });

    // 100 × 101 = 10,100 > 5,000 is denied; 10 × 102 = 1,020 goes through and fills at D3's open.
    expect(Object.keys(run.denials)).toEqual(['EXCEEDS_MAX_NOTIONAL']);
    expect(fillRows(run)).toEqual([{ bar: 2, side: 'Buy', quantity: '10', price: '102.5', commission: '0' }]);
  });
});
