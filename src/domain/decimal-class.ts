// The project's Decimal class: decimal.js with settings of its own, so the global decimal.js settings of
// other packages never leak in. domain/decimal.ts is where the rest of the code takes it from.
import { Decimal as DecimalJs } from 'decimal.js';

export const Decimal = DecimalJs.clone({ precision: 40, rounding: DecimalJs.ROUND_HALF_EVEN, toExpNeg: -30, toExpPos: 40 });
export type Decimal = InstanceType<typeof Decimal>;
