// Vocabularies of the reference quote calls (PROTOCOL.md §7.2) by name, with their wire values: calc indexes
// (wire value = position + 1), and the warrant filter's sort keys, types, expiry bands, bounds and statuses.

/** Every index calcIndexes can ask for, in wire order (LAST_DONE = 1 … RHO = 40), camelCase as in the response. */
export const CALC_INDEXES = [
  'lastDone',
  'changeVal',
  'changeRate',
  'volume',
  'turnover',
  'ytdChangeRate',
  'turnoverRate',
  'totalMarketValue',
  'capitalFlow',
  'amplitude',
  'volumeRatio',
  'peTtmRatio',
  'pbRatio',
  'dividendRatioTtm',
  'fiveDayChangeRate',
  'tenDayChangeRate',
  'halfYearChangeRate',
  'fiveMinutesChangeRate',
  'expiryDate',
  'strikePrice',
  'upperStrikePrice',
  'lowerStrikePrice',
  'outstandingQty',
  'outstandingRatio',
  'premium',
  'itmOtm',
  'impliedVolatility',
  'warrantDelta',
  'callPrice',
  'toCallPrice',
  'effectiveLeverage',
  'leverageRatio',
  'conversionRatio',
  'balancePoint',
  'openInterest',
  'delta',
  'gamma',
  'theta',
  'vega',
  'rho',
] as const;
export type CalcIndex = (typeof CALC_INDEXES)[number];

/** The indexes whose field is an int64 (the rest are decimal strings; expiryDate is YYYYMMDD). */
export const INTEGER_CALC_INDEXES: ReadonlySet<CalcIndex> = new Set(['volume', 'outstandingQty', 'openInterest']);

export function calcIndexCode(index: CalcIndex): number {
  return CALC_INDEXES.indexOf(index) + 1;
}

export function calcIndexOfCode(code: number): CalcIndex | undefined {
  return CALC_INDEXES[code - 1];
}

export const WARRANT_SORT_KEYS = [
  'lastDone',
  'changeRate',
  'changeValue',
  'volume',
  'turnover',
  'expiryDate',
  'strikePrice',
  'upperStrikePrice',
  'lowerStrikePrice',
  'outstandingQuantity',
  'outstandingRatio',
  'premium',
  'itmOtm',
  'impliedVolatility',
  'delta',
  'callPrice',
  'toCallPrice',
  'effectiveLeverage',
  'leverageRatio',
  'conversionRatio',
  'balancePoint',
  'status',
] as const;
export type WarrantSortKey = (typeof WARRANT_SORT_KEYS)[number];

/** Wire values from 0 in this order. */
export const WARRANT_TYPES = ['Call', 'Put', 'Bull', 'Bear', 'Inline'] as const;
export type WarrantType = (typeof WARRANT_TYPES)[number];

/** Wire values 1–4: under 3 months, 3–6 months, 6–12 months, over 12 months to expiry. */
export const WARRANT_EXPIRY_BANDS = ['lt3', '3to6', '6to12', 'gt12'] as const;
export type WarrantExpiryBand = (typeof WARRANT_EXPIRY_BANDS)[number];

/** Wire values 1 (in bounds) and 2 (out of bounds): whether the price lies inside an inline warrant's range. */
export const WARRANT_BOUNDS = ['in', 'out'] as const;
export type WarrantBounds = (typeof WARRANT_BOUNDS)[number];

/** Wire values 2, 3 and 4. */
export const WARRANT_STATUSES = ['suspended', 'prepareList', 'normal'] as const;
export type WarrantStatus = (typeof WARRANT_STATUSES)[number];

export const warrantWire = {
  type: (value: WarrantType): number => WARRANT_TYPES.indexOf(value),
  expiry: (value: WarrantExpiryBand): number => WARRANT_EXPIRY_BANDS.indexOf(value) + 1,
  bounds: (value: WarrantBounds): number => WARRANT_BOUNDS.indexOf(value) + 1,
  status: (value: WarrantStatus): number => WARRANT_STATUSES.indexOf(value) + 2,
} as const;

/** The language field of the warrant list request. */
export const WARRANT_LANGUAGES = { 'zh-CN': 0, en: 1, 'zh-HK': 2 } as const;
