// Values of the official SDK's enums (longport@3.0.18). They are ambient const enums, which isolated
// module transpilation cannot inline, so the tests that drive the SDK spell out the numbers here, once.
import type {
  AdjustType,
  BalanceType,
  CalcIndex,
  FilterWarrantExpiryDate,
  FilterWarrantInOutBoundsType,
  Market,
  OrderSide,
  OrderType,
  Period,
  SecuritiesUpdateMode,
  SortOrderType,
  SubType,
  TimeInForceType,
  TopicType,
  TradeSessions,
  WarrantSortBy,
  WarrantStatus,
  WarrantType,
} from 'longport';

export const SDK_SIDE = { Buy: 1 as OrderSide, Sell: 2 as OrderSide };
export const SDK_ORDER_TYPE = { LO: 1 as OrderType, MO: 3 as OrderType };
export const SDK_DAY_ORDER = 1 as TimeInForceType;
export const SDK_PERIOD = { OneMinute: 1 as Period, FiveMinutes: 4 as Period, Day: 14 as Period };
export const SDK_NO_ADJUST = 0 as AdjustType;
export const SDK_INTRADAY = 0 as TradeSessions;
export const SDK_ALL_SESSIONS = 1 as TradeSessions;
export const SDK_QUOTE_SUB = 0 as SubType;
export const SDK_SUB = { Quote: 0 as SubType, Depth: 1 as SubType, Brokers: 2 as SubType, Trade: 3 as SubType };
export const SDK_PRIVATE_TOPIC = 0 as TopicType;
export const SDK_MARKET = { US: 1 as Market, HK: 2 as Market };
/** CalcIndex: Node value = position in our CALC_INDEXES (the wire value less one). */
export const sdkCalcIndex = (position: number): CalcIndex => position as CalcIndex;
/** WarrantSortBy: Node value = position in our WARRANT_SORT_KEYS. */
export const sdkWarrantSort = (position: number): WarrantSortBy => position as WarrantSortBy;
export const SDK_SORT = { Ascending: 0 as SortOrderType, Descending: 1 as SortOrderType };
export const SDK_WARRANT_TYPE = {
  Call: 1 as WarrantType,
  Put: 2 as WarrantType,
  Bull: 3 as WarrantType,
  Bear: 4 as WarrantType,
  Inline: 5 as WarrantType,
};
export const SDK_WARRANT_EXPIRY = { LT_3: 0 as FilterWarrantExpiryDate, Between_3_6: 1 as FilterWarrantExpiryDate };
export const SDK_WARRANT_BOUNDS = { In: 0 as FilterWarrantInOutBoundsType, Out: 1 as FilterWarrantInOutBoundsType };
export const SDK_WARRANT_STATUS = { Normal: 2 as WarrantStatus };
export const SDK_UPDATE_MODE = { Add: 0 as SecuritiesUpdateMode, Remove: 1 as SecuritiesUpdateMode, Replace: 2 as SecuritiesUpdateMode };
export const SDK_BALANCE_TYPE = { Cash: 1 as BalanceType, Stock: 2 as BalanceType, Fund: 3 as BalanceType };
