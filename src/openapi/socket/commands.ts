// Command numbers and enumerations of the long connection (PROTOCOL.md §5), named once for client and server.

export const CONTROL_COMMANDS = { close: 0, heartbeat: 1, auth: 2, reconnect: 3 } as const;

export const QUOTE_COMMANDS = {
  profile: 4,
  subscriptions: 5,
  subscribe: 6,
  unsubscribe: 7,
  tradingSessions: 8,
  tradingDays: 9,
  staticInfo: 10,
  quote: 11,
  optionQuote: 12,
  warrantQuote: 13,
  depth: 14,
  brokers: 15,
  participants: 16,
  trades: 17,
  intraday: 18,
  candlesticks: 19,
  optionChainDates: 20,
  optionChainStrikes: 21,
  warrantIssuers: 22,
  warrantList: 23,
  capitalFlow: 24,
  capitalDistribution: 25,
  calcIndexes: 26,
  historyCandlesticks: 27,
} as const;

export const QUOTE_PUSHES = { quote: 101, depth: 102, brokers: 103, trades: 104 } as const;

export const TRADE_COMMANDS = { subscribe: 16, unsubscribe: 17, notification: 18 } as const;

export const SUB_TYPES = { quote: 1, depth: 2, brokers: 3, trades: 4 } as const;
export type SubType = keyof typeof SUB_TYPES;

/** Close codes the server sends in cmd 0. */
export const CLOSE_CODES = {
  0: 'heartbeat timeout',
  1: 'server error',
  2: 'server shutdown',
  3: 'unpack error',
  4: 'authentication error',
  5: 'session expired',
  6: 'duplicate connection',
} as const satisfies Record<number, string>;

export function closeCodeName(code: number): string {
  return (CLOSE_CODES as Record<number, string>)[code] ?? `code ${code}`;
}

export const ADJUST_TYPES = { none: 0, forward: 1 } as const;
export type AdjustType = keyof typeof ADJUST_TYPES;

export const HISTORY_QUERY_TYPES = { offset: 1, date: 2 } as const;
export const TRADE_SESSION_FILTER = { regular: 0, all: 100 } as const;
