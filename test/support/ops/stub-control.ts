// A hand-written BotControl: a fixed account the test can change, activity the test sends, and every action
// recorded and answered as the test says.
import { Subject } from 'rxjs';
import { Money, Price, Quantity } from '../../../src/domain/index.js';
import type { AccountBalance, Order } from '../../../src/domain/index.js';
import { parseSymbol, type SecuritySymbol } from '../../../src/domain/symbol.js';
import type { Activity, AccountFigures, BotControl, ControlOutcome } from '../../../src/ops/control.js';
import type { JobView, KillSwitchView } from '../../../src/ops/view.js';
import type { NotifierStats } from '../../../src/schedule/queued-notifier.js';

export const AAPL = parseSymbol('AAPL.US');

export function balance(currency: string, netAssets: string, cash = netAssets): AccountBalance {
  const zero = Money.zero(currency);
  return {
    currency,
    totalCash: Money.of(cash, currency),
    maxFinanceAmount: zero,
    remainingFinanceAmount: zero,
    riskLevel: 0,
    marginCall: zero,
    netAssets: Money.of(netAssets, currency),
    initMargin: zero,
    maintenanceMargin: zero,
    buyPower: Money.of(cash, currency),
    cashInfos: [],
    frozenTransactionFees: [],
  };
}

export function openOrder(orderId: string, remark: string, submittedAt = 0): Order {
  return {
    orderId,
    status: 'NewStatus',
    symbol: AAPL,
    stockName: 'Apple',
    side: 'Buy',
    orderType: 'LO',
    quantity: Quantity.of(10),
    executedQuantity: Quantity.ZERO,
    price: Price.of('150.5'),
    executedPrice: undefined,
    triggerPrice: undefined,
    timeInForce: 'Day',
    expireDate: undefined,
    outsideRth: undefined,
    currency: 'USD',
    remark,
    message: '',
    tag: 'Normal',
    triggerStatus: undefined,
    submittedAt,
    updatedAt: submittedAt,
  };
}

export class StubControl implements BotControl {
  readonly kind = 'run';
  readonly mode = 'paper';
  readonly name = 'stub-strategy';
  readonly homeCurrency = 'USD';
  readonly timeZone = 'America/New_York';
  readonly activity = new Subject<Activity>();
  readonly calls: string[] = [];
  figures: AccountFigures = {
    balances: [balance('USD', '100000')],
    positions: [],
    openOrders: [],
    prices: new Map(),
  };
  reads = 0;
  jobList: JobView[] = [
    {
      name: 'stub-strategy',
      kind: 'strategy',
      state: 'running',
      paused: false,
      next: undefined,
      lastResult: undefined,
      lastError: undefined,
      canRunNow: false,
    },
  ];
  kill: KillSwitchView = { tripped: false, reason: undefined, at: undefined };
  notifierStats = new Map<string, NotifierStats>();
  answer: ControlOutcome = { done: true, message: 'done' };

  async readAccount(): Promise<AccountFigures> {
    this.reads += 1;
    return this.figures;
  }
  jobs(): readonly JobView[] {
    return this.jobList;
  }
  killSwitch(): KillSwitchView {
    return this.kill;
  }
  marketTime(): number | undefined {
    return undefined;
  }
  notifiers() {
    return this.notifierStats;
  }
  private record(call: string): Promise<ControlOutcome> {
    this.calls.push(call);
    return Promise.resolve(this.answer);
  }
  cancelOrder(orderId: string) {
    return this.record(`cancel ${orderId}`);
  }
  flatten(symbol: SecuritySymbol) {
    return this.record(`flatten ${symbol}`);
  }
  pauseJob(name: string) {
    return this.record(`pause ${name}`);
  }
  resumeJob(name: string) {
    return this.record(`resume ${name}`);
  }
  runJobNow(name: string) {
    return this.record(`run ${name}`);
  }
  tripKillSwitch(reason: string) {
    return this.record(`trip ${reason}`);
  }
  resetKillSwitch() {
    return this.record('reset');
  }
  /** What was kept in the journal. */
  readonly recorded: Readonly<Record<string, unknown>>[] = [];
  recordControl(detail: Readonly<Record<string, unknown>>): void {
    this.recorded.push(detail);
  }
}
