// The standard normal distribution: cdf (W. J. Cody's erfc approximations, ~1e-15) and its inverse
// (Acklam's rational approximation polished by one Halley step).
// biome-ignore-all lint/correctness/noPrecisionLoss: the published coefficients are kept digit for digit

/** Φ(x), the probability that a standard normal variable is at most x. */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

// erfc by Cody (1969) rational approximations on |x| < 0.5, < 4 and beyond.
function erfc(x: number): number {
  const z = Math.abs(x);
  let result: number;
  if (z < 0.5) {
    const t = z * z;
    const top =
      (((0.185777706184603153 * t + 3.1611237438705656) * t + 113.864154151050156) * t + 377.485237685302021) * t + 3209.37758913846947;
    const bottom = (((t + 23.6012909523441209) * t + 244.024637934444173) * t + 1282.61652607737228) * t + 2844.23683343917062;
    return x < 0 ? 1 + (z * top) / bottom : 1 - (z * top) / bottom;
  }
  if (z < 4) {
    const top =
      (((((((2.15311535474403846e-8 * z + 0.564188496988670089) * z + 8.88314979438837594) * z + 66.1191906371416295) * z +
        298.635138197400131) *
        z +
        881.95222124176909) *
        z +
        1712.04761263407058) *
        z +
        2051.07837782607147) *
        z +
      1230.33935479799725;
    const bottom =
      (((((((z + 15.7449261107098347) * z + 117.693950891312499) * z + 537.181101862009858) * z + 1621.38957456669019) * z +
        3290.79923573345963) *
        z +
        4362.61909014324716) *
        z +
        3439.36767414372164) *
        z +
      1230.33935480374942;
    result = (Math.exp(-z * z) * top) / bottom;
  } else {
    const t = 1 / (z * z);
    const top =
      ((((0.0163153871373020978 * t + 0.305326634961232344) * t + 0.360344899949804439) * t + 0.125781726111229246) * t +
        0.0160837851487422766) *
        t +
      0.000658749161529837803;
    const bottom =
      ((((t + 2.56852019228982242) * t + 1.87295284992346725) * t + 0.527905102951428412) * t + 0.0605183413124413191) * t +
      0.00233520497626869185;
    result = (Math.exp(-z * z) / z) * (1 / Math.sqrt(Math.PI) - (t * top) / bottom);
  }
  return x < 0 ? 2 - result : result;
}

const A = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
const B = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
const C = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
const D = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];

/** Φ⁻¹(p) for 0 < p < 1. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) {
    if (p === 0) return Number.NEGATIVE_INFINITY;
    if (p === 1) return Number.POSITIVE_INFINITY;
    return Number.NaN;
  }
  const low = 0.02425;
  let x: number;
  if (p < low || p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(p < low ? p : 1 - p));
    const value =
      (((((C[0]! * q + C[1]!) * q + C[2]!) * q + C[3]!) * q + C[4]!) * q + C[5]!) /
      ((((D[0]! * q + D[1]!) * q + D[2]!) * q + D[3]!) * q + 1);
    x = p < low ? value : -value;
  } else {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((A[0]! * r + A[1]!) * r + A[2]!) * r + A[3]!) * r + A[4]!) * r + A[5]!) * q) /
      (((((B[0]! * r + B[1]!) * r + B[2]!) * r + B[3]!) * r + B[4]!) * r + 1);
  }
  // One Halley step on Φ(x) − p brings the ~1e-9 approximation to full precision.
  const error = normalCdf(x) - p;
  const u = error * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}
