// What the risk layer answers: approved, or denied with a stable code and the figures behind the decision.

/**
 * Each code names what happened, not which check caught it. Sells beyond the holding while the broker lends
 * no shares: SHORT_SELLING_NOT_ALLOWED (nothing held: the sell would open a short) and SELL_EXCEEDS_POSITION
 * (more than held); EXCEEDS_SELL_LIMIT when it lends some but not enough, or none to an account known to sell
 * short (a short position, or a simulated venue's setting): its margin is used up.
 */
export const DENIAL_CODES = [
  'INVALID_QUANTITY',
  'SYMBOL_NOT_ALLOWED',
  'UNKNOWN_SYMBOL',
  'OUTSIDE_ALLOWED_SESSION',
  'ORDER_RATE_EXCEEDED',
  'EXCEEDS_MAX_NOTIONAL',
  'DAILY_LOSS_HALT',
  'DRAWDOWN_HALT',
  'EXCEEDS_MAX_POSITION',
  'RISK_DATA_UNAVAILABLE',
  'NO_REFERENCE_PRICE',
  'EXCEEDS_BUY_LIMIT',
  'SHORT_SELLING_NOT_ALLOWED',
  'SELL_EXCEEDS_POSITION',
  'EXCEEDS_SELL_LIMIT',
  'INSUFFICIENT_MARGIN',
  'EXCEEDS_BUY_POWER',
] as const;
export type DenialCode = (typeof DENIAL_CODES)[number];

export interface Denial {
  readonly kind: 'denied';
  readonly code: DenialCode;
  /** One line for people, with the numbers in it. */
  readonly message: string;
  /** The numbers behind the decision as decimal strings, e.g. { required: '15000', available: '9000.5' }. */
  readonly figures: Readonly<Record<string, string>>;
}

export interface Approval {
  readonly kind: 'approved';
}

export type RiskDecision = Approval | Denial;

export const APPROVED: Approval = { kind: 'approved' };

export function deny(code: DenialCode, message: string, figures: Readonly<Record<string, string>> = {}): Denial {
  return { kind: 'denied', code, message, figures };
}
