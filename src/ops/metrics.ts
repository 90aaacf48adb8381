// /metrics for Prometheus, in the OpenMetrics format (prom-client): orders, fills, rejections and denials
// by code; reconnects and whether each connection is up; tick-to-order latency; equity and the day's PnL;
// slippage of each fill against the price the strategy decided on; job states and the kill switch; the
// notification queues; and the process's own figures (CPU, memory, event-loop delay).
import { collectDefaultMetrics, Counter, Gauge, Histogram, type OpenMetricsContentType, Registry } from 'prom-client';
import type { Subscription } from 'rxjs';
import type { BotControl } from './control.js';
import type { OpsHub } from './hub.js';

export interface OpsMetrics {
  render(): Promise<{ readonly contentType: string; readonly body: string }>;
  close(): void;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const SLIPPAGE_BUCKETS = [-100, -50, -20, -10, -5, -2, -1, 0, 1, 2, 5, 10, 20, 50, 100];
const NOTIFICATION_OUTCOMES = ['sent', 'failed', 'dropped'] as const;

export function createMetrics(hub: OpsHub, control: BotControl): OpsMetrics {
  const registry = new Registry<OpenMetricsContentType>();
  registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  const registers = [registry];
  collectDefaultMetrics({ register: registry, prefix: 'trader_process_' });

  const orders = new Counter({ name: 'trader_orders', help: 'Orders submitted', labelNames: ['strategy', 'side'], registers });
  const fills = new Counter({ name: 'trader_fills', help: 'Fills', labelNames: ['strategy', 'side'], registers });
  const rejections = new Counter({
    name: 'trader_order_rejections',
    help: 'Orders the venue rejected',
    labelNames: ['strategy'],
    registers,
  });
  const denials = new Counter({
    name: 'trader_denials',
    help: 'Intents denied (risk checks, executor, halts) by code',
    labelNames: ['strategy', 'code'],
    registers,
  });
  const reconnects = new Counter({
    name: 'trader_connection_reconnects',
    help: 'Times a long connection was lost and reconnecting began',
    labelNames: ['connection'],
    registers,
  });
  const tickToOrder = new Histogram({
    name: 'trader_tick_to_order_seconds',
    help: 'From the market data a strategy decided on reaching it to the order being submitted (wall clock)',
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const slippage = new Histogram({
    name: 'trader_fill_slippage_bps',
    help: 'Per fill: basis points worse than the price the strategy decided on (negative: better)',
    labelNames: ['side'],
    buckets: SLIPPAGE_BUCKETS,
    registers,
  });
  new Gauge({
    name: 'trader_connection_up',
    help: '1 while the connection is online, 0 otherwise',
    labelNames: ['connection'],
    registers,
    collect() {
      this.reset();
      for (const connection of hub.connectionStates()) this.set({ connection: connection.name }, connection.status === 'online' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'trader_equity',
    help: 'Net assets of the account in its home currency, as last read from the broker',
    labelNames: ['currency'],
    registers,
    collect() {
      this.reset();
      const equity = hub.equityNow();
      if (equity !== undefined) this.set({ currency: equity.currency }, equity.netAssets.toNumber());
    },
  });
  new Gauge({
    name: 'trader_day_pnl',
    help: "Net assets now less the day's first figure (home currency)",
    labelNames: ['currency'],
    registers,
    collect() {
      this.reset();
      const equity = hub.equityNow();
      if (equity !== undefined) this.set({ currency: equity.currency }, equity.dayChange.toNumber());
    },
  });
  new Gauge({
    name: 'trader_job_state',
    help: "1 for each job's current state (idle, running, stopping, restarting, halted, paused; a run's strategy: completed, failed…)",
    labelNames: ['job', 'state'],
    registers,
    collect() {
      this.reset();
      for (const job of control.jobs()) this.set({ job: job.name, state: job.state }, 1);
    },
  });
  new Gauge({
    name: 'trader_kill_switch_tripped',
    help: '1 while the kill switch holds trading',
    registers,
    collect() {
      this.set(control.killSwitch().tripped ? 1 : 0);
    },
  });
  new Gauge({
    name: 'trader_notifier_queue',
    help: 'Notifications waiting to be delivered, per channel',
    labelNames: ['channel'],
    registers,
    collect() {
      this.reset();
      for (const [channel, stats] of control.notifiers()) this.set({ channel }, stats.queued);
    },
  });
  const delivered = new Map<string, number>();
  new Counter({
    name: 'trader_notifications',
    help: 'Notifications per channel by outcome (sent, failed after retries, dropped from a full queue)',
    labelNames: ['channel', 'outcome'],
    registers,
    collect() {
      for (const [channel, stats] of control.notifiers()) {
        for (const outcome of NOTIFICATION_OUTCOMES) {
          const key = `${channel}/${outcome}`;
          const increase = stats[outcome] - (delivered.get(key) ?? 0);
          if (increase > 0) this.inc({ channel, outcome }, increase);
          else this.inc({ channel, outcome }, 0);
          delivered.set(key, stats[outcome]);
        }
      }
    },
  });

  const subscription: Subscription = hub.facts.subscribe((fact) => {
    switch (fact.kind) {
      case 'order-submitted':
        orders.inc({ strategy: fact.strategy, side: fact.side });
        break;
      case 'fill':
        fills.inc({ strategy: fact.strategy, side: fact.side });
        if (fact.slippageBps !== undefined) slippage.observe({ side: fact.side }, fact.slippageBps);
        break;
      case 'rejection':
        rejections.inc({ strategy: fact.strategy });
        break;
      case 'denial':
        denials.inc({ strategy: fact.strategy, code: fact.code });
        break;
      case 'tick-to-order':
        tickToOrder.observe(fact.seconds);
        break;
      case 'reconnect':
        reconnects.inc({ connection: fact.connection });
        break;
    }
  });

  return {
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
    close() {
      subscription.unsubscribe();
      registry.clear();
    },
  };
}
