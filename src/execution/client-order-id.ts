// Client order ids, carried in the order's `remark`: `<prefix>-<start time base36>-<intent id>`. The intent
// id is unique within a journal and the start time separates runs, so an id is never reused across restarts.

export const DEFAULT_CLIENT_ID_PREFIX = 'lt';

export function clientOrderIdFactory(prefix: string, startTime: number): (intentId: number) => string {
  const stamp = `${prefix}-${Math.max(0, Math.floor(startTime)).toString(36)}-`;
  return (intentId) => `${stamp}${intentId.toString(36)}`;
}
