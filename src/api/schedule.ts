// `longport-trader/schedule`: unattended runs. The config of `trader schedule`, cron jobs on market
// calendars, the supervisor that restarts and halts them, and the service that ties them together.
export { loadScheduleConfig, parseScheduleConfig, type ScheduleConfig } from '../schedule/config.js';
export { ScheduleService, type ScheduleServiceOptions } from '../schedule/service.js';
export { Scheduler, type JobSchedule, type SchedulerOptions } from '../schedule/scheduler.js';
export { Supervisor, type JobStatus, type SupervisorOptions } from '../schedule/supervisor.js';
export { MarketCalendar, type MarketCalendarOptions, type TradingDay } from '../schedule/calendar.js';
