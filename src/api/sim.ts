// `longport-trader/sim`: the simulated broker. startSimulator serves the LongPort protocol (signed HTTP, quote
// and trade WebSockets) over a market replay on 127.0.0.1; Venue is its matching engine, usable alone.
export * from '../sim/server/index.js';
export {
  Venue,
  VenueError,
  VENUE_ERROR_CODES,
  type BuyLimitRequest,
  type VenueErrorCode,
  type VenueOptions,
  type VenueOrder,
  type VenueOrderFilter,
  type VenueOrderUpdate,
} from '../sim/venue/index.js';
