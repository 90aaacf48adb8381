// The `--fault-*` flags of `trader sim`: one per knob of the venue's fault plan, each checked with its flag
// name in the error (rates are fractions from 0 to 1).
import type { Argv } from 'yargs';
import { InvalidInputError } from '../../domain/errors.js';
import type { FaultPlanInput } from '../../sim/venue/index.js';

interface FaultFlag {
  readonly flag: string;
  readonly key: keyof FaultPlanInput;
  readonly kind: 'rate' | 'ms' | 'count';
  readonly describe: string;
}

const FAULT_FLAGS: readonly FaultFlag[] = [
  { flag: 'fault-latency-ms', key: 'latencyMs', kind: 'ms', describe: 'Delay every HTTP response and socket reply by this many ms' },
  { flag: 'fault-push-drop', key: 'pushDropRate', kind: 'rate', describe: 'Fraction of pushes (quotes, order changes) silently dropped' },
  { flag: 'fault-push-delay-ms', key: 'pushDelayMs', kind: 'ms', describe: 'Hold every push back this many ms' },
  {
    flag: 'fault-push-reorder',
    key: 'pushReorderRate',
    kind: 'rate',
    describe: 'Fraction of pushes delivered after the next one (out of order)',
  },
  { flag: 'fault-push-duplicate', key: 'pushDuplicateRate', kind: 'rate', describe: 'Fraction of pushes delivered twice' },
  { flag: 'fault-http-5xx', key: 'http5xxRate', kind: 'rate', describe: 'Fraction of HTTP calls answered 500 (envelope code 500000)' },
  {
    flag: 'fault-http-429',
    key: 'http429Rate',
    kind: 'rate',
    describe: 'Fraction of HTTP calls answered 429 as plain text (the SDK retries those)',
  },
  { flag: 'fault-socket-drop-after', key: 'socketDropAfterPushes', kind: 'count', describe: 'Cut each connection after this many pushes' },
  { flag: 'fault-socket-drop', key: 'socketDropRate', kind: 'rate', describe: 'Fraction of pushes after which the connection is cut' },
  { flag: 'fault-order-reject', key: 'orderRejectRate', kind: 'rate', describe: 'Fraction of submitted orders rejected' },
  {
    flag: 'fault-partial-fill',
    key: 'partialFillRate',
    kind: 'rate',
    describe: 'Fraction of fills cut to 10-90 % of what the bar allowed',
  },
];

export function faultOptions<T>(yargs: Argv<T>): Argv<T> {
  let result = yargs;
  for (const { flag, describe } of FAULT_FLAGS)
    result = result.option(flag, { type: 'number', describe, group: 'Fault injection (all off by default; deterministic with --seed):' });
  return result;
}

/** The fault plan from the parsed flags; a value out of range is an error naming its flag. */
export function faultPlanFrom(args: Readonly<Record<string, unknown>>): FaultPlanInput {
  const plan: Record<string, number> = {};
  for (const { flag, key, kind } of FAULT_FLAGS) {
    const value = args[flag];
    if (value === undefined) continue;
    const number = Number(value);
    const valid = kind === 'rate' ? number >= 0 && number <= 1 : kind === 'ms' ? number >= 0 : Number.isInteger(number) && number >= 1;
    if (!Number.isFinite(number) || !valid) {
      const expected =
        kind === 'rate' ? 'a fraction from 0 to 1' : kind === 'ms' ? 'milliseconds (0 or more)' : 'a whole number of at least 1';
      throw new InvalidInputError(`--${flag}: must be ${expected} (got ${String(value)})`, `--${flag}`);
    }
    plan[key] = number;
  }
  if ((plan['http5xxRate'] ?? 0) + (plan['http429Rate'] ?? 0) > 1) {
    throw new InvalidInputError('--fault-http-5xx and --fault-http-429 together must not exceed 1', '--fault-http-429');
  }
  return plan as FaultPlanInput;
}
