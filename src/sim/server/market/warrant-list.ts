// The warrant screener (cmd 23) over the generated warrants: each warrant's figures as a FilterWarrant row, the
// filters (type, issuer, expiry band, inline bounds, status) and the sort on any of the 22 keys, with paging.
// Fields a type does not have are "" (a CBBC has no implied volatility, an inline warrant no strike).
import type { FilterConfig, FilterWarrantMessage } from '../../../openapi/socket/messages.js';
import { WARRANT_SORT_KEYS, WARRANT_TYPES } from '../../../openapi/socket/reference-enums.js';
import { daysBetween } from './day-keys.js';
import { decimalText } from './decimal-text.js';
import type { WarrantFigures } from './warrants.js';

/** Status wire value of a listed warrant (every generated warrant trades normally). */
const NORMAL_STATUS = 4;
const ISSUED_QUANTITY_RATIO_DIGITS = 2;

type Row = { readonly message: FilterWarrantMessage; readonly numbers: readonly (number | undefined)[] };

const fixed = decimalText;

export function warrantRow(figures: WarrantFigures): Row {
  const { warrant, view } = figures;
  const spot = view.spot;
  const cost = figures.last * warrant.ratio;
  const bullish = warrant.type === 'Call' || warrant.type === 'Bull';
  const struck = warrant.type !== 'Inline';
  const change = figures.last - figures.prevClose;
  const values = {
    lastDone: figures.last,
    changeRate: figures.prevClose > 0 ? (change / figures.prevClose) * 100 : 0,
    changeValue: change,
    volume: figures.volume,
    turnover: figures.volume * figures.last,
    expiryDate: warrant.expiry,
    strikePrice: struck ? warrant.strike : undefined,
    upperStrikePrice: warrant.upper,
    lowerStrikePrice: struck ? undefined : warrant.strike,
    outstandingQuantity: figures.outstanding,
    outstandingRatio: (figures.outstanding / 100_000_000) * 100,
    premium: struck ? ((bullish ? warrant.strike + cost - spot : spot - warrant.strike + cost) / spot) * 100 : 0,
    itmOtm: struck ? ((bullish ? spot - warrant.strike : warrant.strike - spot) / warrant.strike) * 100 : undefined,
    impliedVolatility: figures.impliedVolatility,
    delta: figures.delta,
    callPrice: warrant.callPrice,
    toCallPrice: warrant.callPrice === undefined ? undefined : (Math.abs(spot - warrant.callPrice) / spot) * 100,
    effectiveLeverage: figures.delta === undefined ? undefined : (Math.abs(figures.delta) * spot) / cost,
    leverageRatio: spot / cost,
    conversionRatio: struck ? warrant.ratio : undefined,
    balancePoint: struck ? (bullish ? warrant.strike + cost : warrant.strike - cost) : undefined,
    status: NORMAL_STATUS,
  } satisfies Record<(typeof WARRANT_SORT_KEYS)[number], number | undefined>;
  return {
    numbers: WARRANT_SORT_KEYS.map((key) => values[key]),
    message: {
      symbol: warrant.symbol,
      name: warrant.name,
      lastDone: fixed(values.lastDone),
      changeRate: fixed(values.changeRate, 2),
      changeVal: fixed(values.changeValue),
      volume: values.volume,
      turnover: fixed(values.turnover, 2),
      expiryDate: String(warrant.expiry),
      strikePrice: fixed(values.strikePrice),
      upperStrikePrice: fixed(values.upperStrikePrice),
      lowerStrikePrice: fixed(values.lowerStrikePrice),
      outstandingQty: String(values.outstandingQuantity),
      outstandingRatio: fixed(values.outstandingRatio, ISSUED_QUANTITY_RATIO_DIGITS),
      premium: fixed(values.premium, 2),
      itmOtm: fixed(values.itmOtm, 2),
      impliedVolatility: fixed(values.impliedVolatility, 4),
      delta: fixed(values.delta, 4),
      callPrice: fixed(values.callPrice),
      toCallPrice: fixed(values.toCallPrice, 2),
      effectiveLeverage: fixed(values.effectiveLeverage, 2),
      leverageRatio: fixed(values.leverageRatio, 2),
      conversionRatio: fixed(values.conversionRatio),
      balancePoint: fixed(values.balancePoint),
      status: NORMAL_STATUS,
      type: WARRANT_TYPES.indexOf(warrant.type),
    },
  };
}

/** Expiry band (wire 1–4) of a warrant `days` from expiry. */
function expiryBand(days: number): number {
  if (days < 90) return 1;
  if (days < 180) return 2;
  if (days < 365) return 3;
  return 4;
}

export function screenWarrants(
  all: readonly WarrantFigures[],
  filter: FilterConfig | null | undefined,
): {
  readonly rows: FilterWarrantMessage[];
  readonly total: number;
} {
  const config = filter ?? {
    sortBy: 0,
    sortOrder: 0,
    sortOffset: 0,
    sortCount: 0,
    type: [],
    issuer: [],
    expiryDate: [],
    priceType: [],
    status: [],
  };
  const kept = all.filter((figures) => {
    const { warrant, view } = figures;
    const inBounds = warrant.upper !== undefined && view.spot > warrant.strike && view.spot < warrant.upper;
    return (
      (config.type.length === 0 || config.type.includes(WARRANT_TYPES.indexOf(warrant.type))) &&
      (config.issuer.length === 0 || config.issuer.includes(warrant.issuer)) &&
      (config.expiryDate.length === 0 || config.expiryDate.includes(expiryBand(daysBetween(view.dayKey, warrant.expiry)))) &&
      (config.priceType.length === 0 || warrant.type !== 'Inline' || config.priceType.includes(inBounds ? 1 : 2)) &&
      (config.status.length === 0 || config.status.includes(NORMAL_STATUS))
    );
  });
  const direction = config.sortOrder === 1 ? -1 : 1;
  const rows = kept.map(warrantRow).sort((left, right) => {
    const a = left.numbers[config.sortBy];
    const b = right.numbers[config.sortBy];
    // Rows without the sort key go last either way; ties keep the symbol order.
    if (a === undefined || b === undefined) return a === b ? compareSymbols(left, right) : a === undefined ? 1 : -1;
    return a === b ? compareSymbols(left, right) : (a - b) * direction;
  });
  const page = config.sortCount > 0 ? rows.slice(config.sortOffset, config.sortOffset + config.sortCount) : rows;
  return { rows: page.map((row) => row.message), total: rows.length };
}

function compareSymbols(left: Row, right: Row): number {
  return left.message.symbol < right.message.symbol ? -1 : left.message.symbol > right.message.symbol ? 1 : 0;
}
