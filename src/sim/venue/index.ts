// The simulated venue's public surface: the Venue (accounts + matching engine), fee models, the fault
// plan and injector, market replay, and the snapshot format.
export { Venue, type BuyLimitRequest, type VenueOptions } from './venue.js';
export type { VenueOrderFilter } from './account-queries.js';
export type { OrderCharges, OrderHistoryEntry, OrderUpdateListener, VenueOrder, VenueOrderUpdate } from './orders.js';
export type { Bar } from './matching.js';
export type { CashFlow, CashFlowKind } from './cash-flows.js';
export type { CorporateAction } from './corporate-actions.js';
export { VenueError, VENUE_ERROR_CODES, type VenueErrorCode } from './errors.js';
export {
  FEE_SETTINGS,
  FILL_MODELS,
  INTRABAR_PATHS,
  parseVenueSettings,
  venueSettingsSchema,
  type FillModel,
  type IntrabarPath,
  type VenueSettings,
  type VenueSettingsInput,
} from './settings.js';
export { commissionRate, noFees, type FeeBreakdown, type FeeItem, type FeeModel, type OrderExecution } from './fees.js';
export {
  byMarketFeeModel,
  FEE_SCHEDULES,
  HK_STOCK_SCHEDULE,
  scheduleFeeModel,
  US_STOCK_SCHEDULE,
  type FeeComponent,
  type FeeSchedule,
  type FeeScheduleName,
} from './fee-schedules.js';
export {
  FaultInjector,
  faultPlanSchema,
  NO_FAULTS,
  parseFaultPlan,
  type FaultPlan,
  type FaultPlanInput,
  type FaultState,
} from './faults.js';
export {
  MarketReplay,
  pacingDelay,
  replayTicks,
  type MarketReplayOptions,
  type ReplayGate,
  type ReplayTick,
  type TickListener,
  type TickPoint,
} from './replay.js';
export { parseSnapshot, venueSnapshotSchema, type VenueSnapshot } from './snapshot.js';
export { deriveSeed, SeededRandom } from './rng.js';
