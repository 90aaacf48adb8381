// What the hub derives from a bot's activity for counters and histograms (metrics.ts): each order, fill,
// rejection, denial and reconnect once, however many sessions of an account report it.

export type OpsFact =
  | { readonly kind: 'order-submitted'; readonly strategy: string; readonly side: string }
  | { readonly kind: 'fill'; readonly strategy: string; readonly side: string; readonly slippageBps: number | undefined }
  | { readonly kind: 'rejection'; readonly strategy: string }
  | { readonly kind: 'denial'; readonly strategy: string; readonly code: string }
  /** From the market data the strategy decided on reaching it to the order's submission, on the wall clock. */
  | { readonly kind: 'tick-to-order'; readonly seconds: number }
  | { readonly kind: 'reconnect'; readonly connection: string };
