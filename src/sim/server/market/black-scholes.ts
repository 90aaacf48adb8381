// Black–Scholes prices and Greeks of European calls and puts, and of a digital paying 1 inside a range: how the
// simulator values the option chains and warrants it generates. Years are 365-day years; rates and volatilities
// are annual fractions.

export interface OptionInputs {
  readonly spot: number;
  readonly strike: number;
  readonly years: number;
  readonly volatility: number;
  readonly rate: number;
}

export interface Greeks {
  readonly price: number;
  readonly delta: number;
  readonly gamma: number;
  /** Per calendar day. */
  readonly theta: number;
  /** Per volatility point (1 %). */
  readonly vega: number;
  /** Per rate point (1 %). */
  readonly rho: number;
}

/** Standard normal distribution function (Abramowitz and Stegun 26.2.17, error below 7.5e-8). */
export function normalCdf(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const poly = t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  const tail = normalPdf(x) * poly;
  return x >= 0 ? 1 - tail : tail;
}

export function normalPdf(x: number): number {
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}

function d1d2(input: OptionInputs): [number, number] {
  const years = Math.max(input.years, 1 / 365);
  const spread = input.volatility * Math.sqrt(years);
  const d1 = (Math.log(input.spot / input.strike) + (input.rate + (input.volatility * input.volatility) / 2) * years) / spread;
  return [d1, d1 - spread];
}

export function optionGreeks(kind: 'call' | 'put', input: OptionInputs): Greeks {
  const years = Math.max(input.years, 1 / 365);
  const [d1, d2] = d1d2(input);
  const discount = Math.exp(-input.rate * years);
  const density = normalPdf(d1);
  const gamma = density / (input.spot * input.volatility * Math.sqrt(years));
  const vega = (input.spot * density * Math.sqrt(years)) / 100;
  const decay = (-input.spot * density * input.volatility) / (2 * Math.sqrt(years));
  if (kind === 'call') {
    const price = input.spot * normalCdf(d1) - input.strike * discount * normalCdf(d2);
    const theta = (decay - input.rate * input.strike * discount * normalCdf(d2)) / 365;
    return { price, delta: normalCdf(d1), gamma, theta, vega, rho: (input.strike * years * discount * normalCdf(d2)) / 100 };
  }
  const price = input.strike * discount * normalCdf(-d2) - input.spot * normalCdf(-d1);
  const theta = (decay + input.rate * input.strike * discount * normalCdf(-d2)) / 365;
  return { price, delta: normalCdf(d1) - 1, gamma, theta, vega, rho: (-input.strike * years * discount * normalCdf(-d2)) / 100 };
}

/** Present value of 1 paid if the spot ends strictly between `lower` and `upper`. */
export function rangeDigital(input: Omit<OptionInputs, 'strike'>, lower: number, upper: number): number {
  const above = (strike: number): number => normalCdf(d1d2({ ...input, strike })[1]);
  return Math.exp(-input.rate * Math.max(input.years, 1 / 365)) * Math.max(0, above(lower) - above(upper));
}
