// How many fraction digits the heatmap's numbers get: page code, kept as text (the heatmap is drawn in the
// browser); the tests evaluate it. Text rather than a function's toString(): the start-up snapshot's build
// minifies functions, and the page must be the same from either start.

/**
 * decimalPlaces(values): fraction digits enough for the closest two distinct finite `values`, within two or
 * three significant digits of the range of their middle 80 % (the cells would widen for a finer step; an
 * outlier, profitFactor 54 among values near 1–2, would leave the rest one digit and alike, "1.0", though
 * they differ in colour, which goes by rank). A single value gets three significant digits.
 */
export const DECIMAL_PLACES_SCRIPT = `
function decimalPlaces(values) {
  var sorted = values.filter(function (value) { return Number.isFinite(value); }).sort(function (a, b) { return a - b; });
  if (sorted.length === 0) return 0;
  var range = sorted[sorted.length - 1] - sorted[0], size = Math.abs(sorted[0]);
  if (range === 0) return size === 0 ? 0 : Math.min(12, Math.max(0, 2 - Math.floor(Math.log10(size))));
  var gap = range;
  for (var index = 1; index < sorted.length; index++) {
    var step = sorted[index] - sorted[index - 1];
    if (step > 0 && step < gap) gap = step;
  }
  var middle = sorted[Math.ceil((sorted.length - 1) * 0.9)] - sorted[Math.floor((sorted.length - 1) * 0.1)];
  var least = 1 - Math.floor(Math.log10(middle > 0 ? middle : range));
  // Two values at least 10^-places apart never round to one text.
  var apart = Math.ceil(-Math.log10(gap) - 1e-9);
  return Math.min(12, Math.max(0, Math.min(Math.max(apart, least), least + 1)));
}
`;
