// The fault plan: failures the simulator injects on purpose, all off by default and settable per run.
// The venue applies its own (order rejections, forced partial fills); the protocol server asks the same
// injector about latency, pushes, HTTP errors and socket drops. Every knob draws from its own seeded stream.
import { z } from 'zod';
import { parseStrict } from './config-errors.js';
import { deriveSeed, SeededRandom } from './rng.js';

const rate = z.number().min(0).max(1);

export const faultPlanSchema = z
  .strictObject({
    /** Added to every HTTP response and socket reply, in milliseconds. */
    latencyMs: z.number().min(0).default(0),
    /** Fraction of server pushes silently dropped. */
    pushDropRate: rate.default(0),
    /** Every push is held back this long, in milliseconds. */
    pushDelayMs: z.number().min(0).default(0),
    /** Fraction of pushes held back until after the next push (delivered out of order). */
    pushReorderRate: rate.default(0),
    /** Fraction of pushes delivered twice. */
    pushDuplicateRate: rate.default(0),
    /** Fraction of HTTP requests answered with a 500 server error. */
    http5xxRate: rate.default(0),
    /** Fraction of HTTP requests answered with a 429 rate-limit error. */
    http429Rate: rate.default(0),
    /** Close a socket after this many pushes on it (null: never). */
    socketDropAfterPushes: z.number().int().min(1).nullable().default(null),
    /** Fraction of pushes after which the socket is closed. */
    socketDropRate: rate.default(0),
    /** Fraction of submitted orders rejected by the venue. */
    orderRejectRate: rate.default(0),
    /** Fraction of fills cut to a random part (10 % to 90 %) of what the bar allowed; the rest keeps working. */
    partialFillRate: rate.default(0),
  })
  .refine((plan) => plan.http5xxRate + plan.http429Rate <= 1, {
    message: 'http5xxRate + http429Rate must not exceed 1',
    path: ['http429Rate'],
  });

export type FaultPlan = z.output<typeof faultPlanSchema>;
export type FaultPlanInput = z.input<typeof faultPlanSchema>;

export const NO_FAULTS: FaultPlan = faultPlanSchema.parse({});

/** Validates a fault plan (unknown keys rejected, every problem reported at once). */
export function parseFaultPlan(input: unknown): FaultPlan {
  return parseStrict(faultPlanSchema, input ?? {}, 'faults');
}

const STREAMS = ['push-drop', 'push-reorder', 'push-duplicate', 'http', 'socket-drop', 'order-reject', 'partial-fill'] as const;
type Stream = (typeof STREAMS)[number];

/** The RNG positions of every stream, for snapshots. */
export type FaultState = Readonly<Record<Stream, number>>;

export class FaultInjector {
  private readonly streams: Record<Stream, SeededRandom>;
  /** This venue's own copy: tests switch faults on in a running simulator, and venues share parsed settings. */
  readonly plan: FaultPlan;

  constructor(plan: FaultPlan, seed: number) {
    this.plan = { ...plan };
    this.streams = Object.fromEntries(STREAMS.map((name) => [name, new SeededRandom(deriveSeed(seed, name))])) as Record<
      Stream,
      SeededRandom
    >;
  }

  latencyMs(): number {
    return this.plan.latencyMs;
  }

  pushDelayMs(): number {
    return this.plan.pushDelayMs;
  }

  dropPush(): boolean {
    return this.streams['push-drop'].chance(this.plan.pushDropRate);
  }

  reorderPush(): boolean {
    return this.streams['push-reorder'].chance(this.plan.pushReorderRate);
  }

  duplicatePush(): boolean {
    return this.streams['push-duplicate'].chance(this.plan.pushDuplicateRate);
  }

  /** The HTTP status to fail a request with, or undefined to serve it. One draw per request. */
  httpFailure(): 500 | 429 | undefined {
    const { http5xxRate, http429Rate } = this.plan;
    if (http5xxRate + http429Rate <= 0) return undefined;
    const draw = this.streams.http.next();
    if (draw < http5xxRate) return 500;
    if (draw < http5xxRate + http429Rate) return 429;
    return undefined;
  }

  /** Whether to close a socket right after its `pushesSent`-th push. */
  dropSocket(pushesSent: number): boolean {
    const after = this.plan.socketDropAfterPushes;
    if (after !== null && pushesSent >= after) return true;
    return this.streams['socket-drop'].chance(this.plan.socketDropRate);
  }

  rejectOrder(): boolean {
    return this.streams['order-reject'].chance(this.plan.orderRejectRate);
  }

  /** The part (0.1–0.9) of a fill to keep when a partial fill is forced, else undefined. */
  partialFillFraction(): number | undefined {
    const stream = this.streams['partial-fill'];
    if (!stream.chance(this.plan.partialFillRate)) return undefined;
    return 0.1 + 0.8 * stream.next();
  }

  getState(): FaultState {
    return Object.fromEntries(STREAMS.map((name) => [name, this.streams[name].getState()])) as FaultState;
  }

  /** A state saved before a stream existed leaves that stream at its seed. */
  setState(state: Partial<FaultState>): void {
    for (const name of STREAMS) {
      const position = state[name];
      if (position !== undefined) this.streams[name].setState(position);
    }
  }
}
