// What the command line starts when a bot is to be watched (loaded only then): the log tail, the gate of a
// run, the two controls, and startOps. The Telegram bot is its own module (grammy), loaded only for it.
export { LogTail } from './log-tail.js';
export { ManualGate } from './manual-gate.js';
export { RunControl } from './run-control.js';
export { ScheduleControl, type ScheduleAccount } from './schedule-control.js';
export { startOps, type Ops, type OpsOptions } from './start.js';
