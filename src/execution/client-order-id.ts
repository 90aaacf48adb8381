// Client order ids, carried in the order's `remark`: `<prefix>-<start time base36>-<intent id base36>`. The
// intent id is unique within a journal and the start time separates runs, so an id is never reused across
// restarts, and a late report of a finished order of this run is recognised by its stamp.

export const DEFAULT_CLIENT_ID_PREFIX = 'lt';

export class ClientOrderIds {
  private readonly stamp: string;

  constructor(prefix: string, startTime: number) {
    this.stamp = `${prefix}-${Math.max(0, Math.floor(startTime)).toString(36)}-`;
  }

  forIntent(intentId: number): string {
    return `${this.stamp}${intentId.toString(36)}`;
  }

  isFromThisRun(remark: string): boolean {
    return remark.startsWith(this.stamp);
  }
}
