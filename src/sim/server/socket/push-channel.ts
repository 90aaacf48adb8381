// Server pushes to one connection, through the fault plan: a push may be dropped, held back until after the
// next one (out of order), delivered twice, or delayed; after a push the socket may be cut as a network
// failure would.
import type WebSocket from 'ws';
import type { Clock } from '../../../domain/clock.js';
import type { FaultInjector } from '../../venue/index.js';

export class PushChannel {
  private held: Uint8Array | undefined;
  private sent = 0;
  /** Set once the fault plan has decided to cut the link: nothing more goes out on it. */
  private cut = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly faults: FaultInjector,
    private readonly clock: Clock,
    /** Cuts the link (called when the fault plan drops the socket). */
    private readonly drop: () => void,
  ) {}

  /** Pushes delivered on this connection so far. */
  get pushesSent(): number {
    return this.sent;
  }

  push(frame: Uint8Array): void {
    if (this.faults.dropPush()) return;
    if (this.held === undefined && this.faults.reorderPush()) {
      this.held = frame;
      return;
    }
    this.deliver(frame);
    if (this.faults.duplicatePush()) this.deliver(frame);
    const held = this.held;
    this.held = undefined;
    if (held !== undefined) this.deliver(held);
  }

  private deliver(frame: Uint8Array): void {
    const delay = this.faults.pushDelayMs();
    if (delay > 0) this.clock.setTimeout(() => this.send(frame), delay);
    else this.send(frame);
  }

  private send(frame: Uint8Array): void {
    if (this.cut || this.socket.readyState !== this.socket.OPEN) return;
    this.sent += 1;
    this.cut = this.faults.dropSocket(this.sent);
    // The push itself still reaches the client; the link dies right after it is written.
    if (this.cut) this.socket.send(frame, () => this.drop());
    else this.socket.send(frame);
  }
}
