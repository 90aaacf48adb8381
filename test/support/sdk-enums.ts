// Values of the official SDK's enums (longport@3.0.18). They are ambient const enums, which isolated
// module transpilation cannot inline, so the tests that drive the SDK spell out the numbers here, once.
import type { AdjustType, Market, OrderSide, OrderType, Period, SubType, TimeInForceType, TopicType, TradeSessions } from 'longport';

export const SDK_SIDE = { Buy: 1 as OrderSide, Sell: 2 as OrderSide };
export const SDK_ORDER_TYPE = { LO: 1 as OrderType, MO: 3 as OrderType };
export const SDK_DAY_ORDER = 1 as TimeInForceType;
export const SDK_PERIOD = { OneMinute: 1 as Period, Day: 14 as Period };
export const SDK_NO_ADJUST = 0 as AdjustType;
export const SDK_INTRADAY = 0 as TradeSessions;
export const SDK_QUOTE_SUB = 0 as SubType;
export const SDK_PRIVATE_TOPIC = 0 as TopicType;
export const SDK_MARKET = { US: 1 as Market, HK: 2 as Market };
