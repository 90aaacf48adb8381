// The OpenAPI broker: the Broker port over the HTTP client and the trade connection.
export { OpenApiBroker } from './openapi-broker.js';
export { describeSubmitFailure, isDefiniteRefusal } from './refusal.js';
