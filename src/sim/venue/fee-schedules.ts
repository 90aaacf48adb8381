// Market fee schedules modelled on LongPort's (Longbridge Securities) published retail fees, one table per
// market. Each component is charged per order on the order's cumulative value or quantity.
import { Fixed } from '../../domain/fixed.js';
import { Money } from '../../domain/money.js';
import { Price } from '../../domain/price.js';
import type { Market } from '../../domain/symbol.js';
import { commissionRate, noFees, noFeesIn, type FeeItem, type FeeModel, type OrderExecution } from './fees.js';
import type { VenueSettings } from './settings.js';

export interface FeeComponent {
  readonly code: string;
  readonly name: string;
  readonly side: 'both' | 'sell';
  /** Fraction of traded value. */
  readonly rate?: string;
  readonly perShare?: string;
  readonly perOrder?: string;
  readonly minimum?: string;
  readonly maximum?: string;
  /** 'cent': nearest 0.01; 'cent-up': up to 0.01; 'unit-up': up to the whole currency unit. */
  readonly rounding: 'cent' | 'cent-up' | 'unit-up';
}

export interface FeeSchedule {
  readonly name: string;
  readonly currency: string;
  readonly components: readonly FeeComponent[];
}

// Hong Kong stocks, figures as of 2025-01. Broker charges from Longbridge HK's published rate card
// (https://longbridge.com/hk/rate: commission-free, platform fee HKD 15 per order); levies from HKEX, SFC,
// AFRC and the HK government (stamp duty 0.1 % since 2023-11-17, charged on both sides, rounded up to HKD 1).
export const HK_STOCK_SCHEDULE: FeeSchedule = {
  name: 'hk-stock',
  currency: 'HKD',
  components: [
    { code: 'commission', name: 'Commission', side: 'both', rate: '0', rounding: 'cent' },
    { code: 'platform_fee', name: 'Platform fee', side: 'both', perOrder: '15', rounding: 'cent' },
    { code: 'stamp_duty', name: 'Stamp duty', side: 'both', rate: '0.001', rounding: 'unit-up' },
    { code: 'sfc_levy', name: 'SFC transaction levy', side: 'both', rate: '0.000027', rounding: 'cent' },
    { code: 'trading_fee', name: 'HKEX trading fee', side: 'both', rate: '0.0000565', minimum: '0.01', rounding: 'cent' },
    { code: 'settlement_fee', name: 'HKSCC settlement fee', side: 'both', rate: '0.00002', minimum: '2', maximum: '100', rounding: 'cent' },
    { code: 'frc_levy', name: 'AFRC transaction levy', side: 'both', rate: '0.0000015', rounding: 'cent' },
  ],
};

// US stocks, figures as of 2025-01. Broker charges from Longbridge's published rate card
// (https://longbridge.com/hk/rate: commission-free, platform fee USD 0.005 per share, minimum USD 1 per
// order); SEC Section 31 fee USD 27.80 per million sold (rate in force from 2024-05-22) and FINRA TAF
// USD 0.000166 per share sold, maximum USD 8.30 (2024 rate), both rounded up to the cent, sells only.
export const US_STOCK_SCHEDULE: FeeSchedule = {
  name: 'us-stock',
  currency: 'USD',
  components: [
    { code: 'commission', name: 'Commission', side: 'both', perShare: '0', rounding: 'cent' },
    { code: 'platform_fee', name: 'Platform fee', side: 'both', perShare: '0.005', minimum: '1', rounding: 'cent' },
    { code: 'sec_fee', name: 'SEC fee', side: 'sell', rate: '0.0000278', minimum: '0.01', rounding: 'cent-up' },
    {
      code: 'finra_taf',
      name: 'FINRA trading activity fee',
      side: 'sell',
      perShare: '0.000166',
      minimum: '0.01',
      maximum: '8.30',
      rounding: 'cent-up',
    },
  ],
};

export const FEE_SCHEDULES = { 'hk-stock': HK_STOCK_SCHEDULE, 'us-stock': US_STOCK_SCHEDULE } as const;
export type FeeScheduleName = keyof typeof FEE_SCHEDULES;

interface CompiledComponent {
  readonly code: string;
  readonly name: string;
  readonly sellOnly: boolean;
  readonly rate: Fixed | undefined;
  readonly perShare: Price | undefined;
  readonly perOrder: Fixed | undefined;
  readonly minimum: Fixed | undefined;
  readonly maximum: Fixed | undefined;
  readonly rounding: FeeComponent['rounding'];
}

function optional(figure: string | undefined): Fixed | undefined {
  return figure === undefined || Fixed.of(figure).isZero() ? undefined : Fixed.of(figure);
}

function round(amount: Money, rounding: FeeComponent['rounding']): Money {
  if (rounding === 'unit-up') return amount.roundTo(0, 'ceil');
  if (rounding === 'cent-up') return amount.roundTo(2, 'ceil');
  return amount.roundTo(2, 'half-up');
}

/** A fee model charging every component of a schedule on each order's cumulative execution. */
export function scheduleFeeModel(schedule: FeeSchedule): FeeModel {
  // Components that can never charge anything (a zero commission) are listed for the record only.
  const charging = schedule.components.filter((component) =>
    [component.rate, component.perShare, component.perOrder].some((figure) => figure !== undefined && !Fixed.of(figure).isZero()),
  );
  const components: CompiledComponent[] = charging.map((component) => ({
    code: component.code,
    name: component.name,
    sellOnly: component.side === 'sell',
    rate: optional(component.rate),
    perShare: component.perShare === undefined || Fixed.of(component.perShare).isZero() ? undefined : Price.of(component.perShare),
    perOrder: optional(component.perOrder),
    minimum: component.minimum === undefined ? undefined : Fixed.of(component.minimum),
    maximum: component.maximum === undefined ? undefined : Fixed.of(component.maximum),
    rounding: component.rounding,
  }));
  return {
    name: schedule.name,
    orderFees(execution: OrderExecution) {
      const currency = execution.value.currency;
      if (execution.quantity.isZero()) return noFeesIn(currency);
      const items: FeeItem[] = [];
      let total = Money.zero(currency);
      for (const component of components) {
        if (component.sellOnly && execution.side !== 'Sell') continue;
        let amount = Money.zero(currency);
        if (component.rate !== undefined) amount = execution.value.times(component.rate);
        if (component.perShare !== undefined) amount = amount.plus(Money.notional(execution.quantity, component.perShare, currency));
        if (component.perOrder !== undefined) amount = amount.plus(Money.of(component.perOrder, currency));
        if (amount.isZero()) continue;
        // Limits are given without a currency: they are amounts of the order's own.
        if (component.minimum !== undefined && amount.lt(component.minimum)) amount = Money.of(component.minimum, currency);
        if (component.maximum !== undefined && amount.gt(component.maximum)) amount = Money.of(component.maximum, currency);
        amount = round(amount, component.rounding);
        items.push({ code: component.code, name: component.name, amount });
        total = total.plus(amount);
      }
      return { total, items };
    },
  };
}

/** The schedule of each symbol's own market (HK or US); other markets trade without fees. */
export function byMarketFeeModel(): FeeModel {
  const models: Partial<Record<Market, FeeModel>> = { HK: scheduleFeeModel(HK_STOCK_SCHEDULE), US: scheduleFeeModel(US_STOCK_SCHEDULE) };
  return {
    name: 'by-market',
    orderFees: (execution) => (models[execution.market] ?? noFees).orderFees(execution),
  };
}

/** The fee model a `fees` setting names. */
export function feeModelFor(setting: VenueSettings['fees']): FeeModel {
  if (typeof setting === 'object') return commissionRate(setting.commissionRate);
  if (setting === 'none') return noFees;
  if (setting === 'by-market') return byMarketFeeModel();
  return scheduleFeeModel(FEE_SCHEDULES[setting]);
}
