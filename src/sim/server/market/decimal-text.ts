// Generated figures (floats) as the decimal text the wire carries: at most `digits` places, no trailing zeros,
// never exponent notation (which the SDK cannot parse), "" for a figure that does not apply.

export function decimalText(value: number | undefined, digits = 3): string {
  if (value === undefined || !Number.isFinite(value)) return '';
  const text = value.toFixed(digits);
  const trimmed = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
  return trimmed === '-0' ? '0' : trimmed;
}
