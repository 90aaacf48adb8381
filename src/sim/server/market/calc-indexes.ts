// Calc indexes (cmd 26) of replayed securities and of the generated options and warrants. Price, change, volume,
// amplitude, multi-day changes and volume ratio come from the replay; valuation ratios from the generated
// fundamentals; capital flow from the generated flow; derivative figures from the generated contracts. Only the
// requested indexes are filled; one a security does not have is left empty (the SDK reads it as none).
import type { SecuritySymbol } from '../../../domain/symbol.js';
import type { SecurityCalcIndexMessage } from '../../../openapi/socket/messages.js';
import { calcIndexOfCode, INTEGER_CALC_INDEXES, type CalcIndex } from '../../../openapi/socket/reference-enums.js';
import { capitalFlow } from './capital.js';
import { decimalText } from './decimal-text.js';
import { fundamentalsOf, TOTAL_SHARES } from './fundamentals.js';
import type { OptionChains, OptionContract } from './option-chain.js';
import type { Underlyings, UnderlyingView } from './underlyings.js';
import { warrantRow } from './warrant-list.js';
import type { Warrants } from './warrants.js';

type Figures = Partial<Record<CalcIndex, number>>;

const HALF_YEAR_DAYS = 120;

export class CalcIndexes {
  constructor(
    private readonly underlyings: Underlyings,
    private readonly options: OptionChains,
    private readonly warrants: Warrants,
    private readonly seed: number,
  ) {}

  answer(symbols: readonly string[], codes: readonly number[]): SecurityCalcIndexMessage[] {
    const wanted = codes.flatMap((code) => calcIndexOfCode(code) ?? []);
    return symbols.flatMap((symbol) => {
      const figures = this.figures(symbol);
      if (figures === undefined) return [];
      const row: Record<string, string | number> = { symbol };
      for (const index of wanted) {
        const value = figures[index];
        if (INTEGER_CALC_INDEXES.has(index)) row[index] = value === undefined ? 0 : Math.round(value);
        else row[index] = index === 'expiryDate' ? (value === undefined ? '' : String(value)) : decimalText(value, 4);
      }
      return [row as SecurityCalcIndexMessage];
    });
  }

  private figures(symbol: string): Figures | undefined {
    if (this.underlyings.symbols.includes(symbol as SecuritySymbol)) return this.stock(symbol as SecuritySymbol);
    const contract = this.options.contract(symbol);
    if (contract !== undefined) return this.option(contract);
    const warrant = this.warrants.find(symbol);
    const figures = warrant === undefined ? undefined : this.warrants.figures(warrant);
    if (figures === undefined) return undefined;
    const row = warrantRow(figures);
    const value = (key: number): number | undefined => row.numbers[key];
    // Positions in WARRANT_SORT_KEYS.
    return {
      ...priceFigures(figures.last, figures.prevClose, figures.volume, figures.volume * figures.last),
      expiryDate: value(5),
      strikePrice: value(6),
      upperStrikePrice: value(7),
      lowerStrikePrice: value(8),
      outstandingQty: value(9),
      outstandingRatio: value(10),
      premium: value(11),
      itmOtm: value(12),
      impliedVolatility: value(13),
      warrantDelta: value(14),
      callPrice: value(15),
      toCallPrice: value(16),
      effectiveLeverage: value(17),
      leverageRatio: value(18),
      conversionRatio: value(19),
      balancePoint: value(20),
    };
  }

  private stock(symbol: SecuritySymbol): Figures | undefined {
    const view = this.underlyings.view(symbol);
    if (view === undefined) return undefined;
    const tick = view.quote.tick;
    const first = this.underlyings.candles.series(symbol)!.candles[0]!.close;
    const fundamentals = fundamentalsOf(symbol, first, this.seed);
    const changeSince = (days: number): number | undefined => {
      const closes = this.underlyings.closesBeforeToday(symbol, days);
      return closes.length === days ? rate(view.spot, closes[0]!) : undefined;
    };
    const flow = capitalFlow(symbol, view.quote, this.underlyings.board.marketDays(symbol), this.underlyings.marketClock.now(), this.seed);
    return {
      ...priceFigures(view.spot, view.prevClose, tick.dayVolume, tick.dayTurnover),
      ytdChangeRate: this.yearToDate(symbol, view),
      turnoverRate: (tick.dayVolume / TOTAL_SHARES) * 100,
      totalMarketValue: view.spot * TOTAL_SHARES,
      capitalFlow: Number(flow.capitalFlowLines.at(-1)?.inflow ?? 0),
      amplitude: view.prevClose > 0 ? ((tick.dayHigh - tick.dayLow) / view.prevClose) * 100 : undefined,
      volumeRatio: this.volumeRatio(symbol, view),
      peTtmRatio: fundamentals.epsTtm > 0 ? view.spot / fundamentals.epsTtm : undefined,
      pbRatio: fundamentals.bps > 0 ? view.spot / fundamentals.bps : undefined,
      dividendRatioTtm: (fundamentals.dividendPerShare / view.spot) * 100,
      fiveDayChangeRate: changeSince(5),
      tenDayChangeRate: changeSince(10),
      halfYearChangeRate: changeSince(HALF_YEAR_DAYS),
      fiveMinutesChangeRate: this.fiveMinuteChange(view),
    };
  }

  private option(contract: OptionContract): Figures | undefined {
    const quote = this.options.quote(contract.symbol);
    const greeks = this.options.greeks(contract);
    const view = this.underlyings.view(contract.underlying);
    if (quote === undefined || greeks === undefined || view === undefined) return undefined;
    const price = Number(quote.lastDone);
    const call = contract.kind === 'call';
    return {
      ...priceFigures(price, Number(quote.prevClose), quote.volume, Number(quote.turnover)),
      expiryDate: contract.expiry,
      strikePrice: contract.strike,
      premium: ((call ? contract.strike + price - view.spot : view.spot - contract.strike + price) / view.spot) * 100,
      itmOtm: ((call ? view.spot - contract.strike : contract.strike - view.spot) / contract.strike) * 100,
      impliedVolatility: Number(quote.optionExtend!.impliedVolatility),
      effectiveLeverage: (Math.abs(greeks.delta) * view.spot) / price,
      leverageRatio: view.spot / price,
      balancePoint: call ? contract.strike + price : contract.strike - price,
      openInterest: quote.optionExtend!.openInterest,
      delta: greeks.delta,
      gamma: greeks.gamma,
      theta: greeks.theta,
      vega: greeks.vega,
      rho: greeks.rho,
    };
  }

  /** Change since the last close of the previous year (since the first price of the data when it starts this year). */
  private yearToDate(symbol: SecuritySymbol, view: UnderlyingView): number | undefined {
    const years = this.underlyings.candles.latest(symbol, 'year', 2) ?? [];
    const base = years.length === 2 ? years[0]!.close : years[0]?.open;
    return base === undefined ? undefined : rate(view.spot, base);
  }

  /** Volume per session minute so far today over that of the last five complete days. */
  private volumeRatio(symbol: SecuritySymbol, view: UnderlyingView): number | undefined {
    const days = this.underlyings.board.marketDays(symbol);
    const today = view.dayKey;
    const past = (this.underlyings.candles.latest(symbol, 'day', 6) ?? []).filter((bar) => days.dayKey(bar.time) < today).slice(-5);
    const sessions = days.sessionsOf(view.time);
    let sessionMinutes = 0;
    let elapsed = 0;
    for (let index = 0; index < sessions.length; index += 2) {
      const begin = sessions[index]!;
      const end = sessions[index + 1]!;
      sessionMinutes += (end - begin) / 60_000;
      elapsed += Math.min(Math.max(view.time - begin, 0), end - begin) / 60_000;
    }
    if (past.length === 0 || elapsed === 0 || sessionMinutes === 0) return undefined;
    const usual = past.reduce((sum, bar) => sum + bar.volume, 0) / past.length / sessionMinutes;
    return usual > 0 ? view.quote.tick.dayVolume / elapsed / usual : undefined;
  }

  private fiveMinuteChange(view: UnderlyingView): number | undefined {
    const lines = view.quote.lines;
    const before = lines.findLast((line) => line.time <= view.time - 5 * 60_000);
    return before === undefined ? undefined : rate(view.spot, before.price);
  }
}

function rate(now: number, then: number): number | undefined {
  return then > 0 ? ((now - then) / then) * 100 : undefined;
}

function priceFigures(last: number, prevClose: number, volume: number, turnover: number): Figures {
  return { lastDone: last, changeVal: last - prevClose, changeRate: rate(last, prevClose), volume, turnover };
}
