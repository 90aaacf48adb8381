// What the scheduler announces: fires, skips (with the reason), and start/stop windows opening and closing.
import type { TradingDay } from './calendar.js';

interface EventBase {
  readonly job: string;
  /** Epoch ms of the planned fire instant. */
  readonly at: number;
  /** The same instant as local ISO time in the job's zone. */
  readonly local: string;
}

export type SkipReason = 'non-trading-day' | 'after-half-day-close';

export type ScheduleEvent =
  | (EventBase & { readonly kind: 'fired'; readonly day: TradingDay })
  | (EventBase & {
      readonly kind: 'skipped';
      readonly trigger: 'cron' | 'start';
      readonly reason: SkipReason;
      readonly detail: string;
      readonly day: TradingDay;
    })
  | (EventBase & {
      readonly kind: 'window-opened';
      readonly day: TradingDay;
      /** When the window will close: the next stop fire, or the half-day close if earlier. */
      readonly closesAt: number;
      readonly closeReason: WindowCloseReason;
      /** True when found open at scheduler start (a restart inside the window). */
      readonly resumed: boolean;
    })
  | (EventBase & { readonly kind: 'window-closed'; readonly reason: WindowCloseReason });

export type WindowCloseReason = 'stop' | 'half-day-close';

/** The next thing planned for a job. */
export interface NextFire {
  readonly at: number;
  readonly trigger: 'cron' | 'start' | 'stop';
}
