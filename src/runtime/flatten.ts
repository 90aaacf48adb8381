// Closing a run's positions on stop (a scheduler window closing with flattenAtStop): a close intent per
// traded symbol with a position, through the risk layer and the executor like any other intent, then a wait
// (bounded) for those orders to finish. Only the strategies' own symbols are touched: an account may hold
// positions this run never opened. A person (dashboard, chat) may flatten any one symbol the same way.
import type { Clock, SecuritySymbol } from '../domain/index.js';
import type { Executor } from '../execution/executor.js';
import type { StrategyHost } from './strategy-host.js';

/** Intents of failed strategies are ignored by the executor, so their positions are closed under this name. */
export const FLATTEN_OWNER = 'flatten';

/** Sends the closes and resolves once none of their symbols has an open order, or after `waitMs`. */
export async function flattenPositions(
  executor: Executor,
  hosts: readonly StrategyHost[],
  clock: Clock,
  waitMs: number,
): Promise<readonly SecuritySymbol[]> {
  const owners = new Map<SecuritySymbol, string>();
  for (const host of hosts) {
    for (const symbol of host.strategy.symbols)
      if (!owners.has(symbol)) owners.set(symbol, host.state === 'failed' ? FLATTEN_OWNER : host.name);
  }
  const closing = [...owners].filter(([symbol]) => !executor.book.quantity(symbol).isZero());
  return closeAndWait(executor, closing, 'flatten on stop', true, clock, waitMs);
}

/** Closes one symbol's position (under FLATTEN_OWNER); resolves true once its orders finished, false when flat already. */
export async function flattenSymbol(
  executor: Executor,
  symbol: SecuritySymbol,
  reason: string,
  clock: Clock,
  waitMs: number,
): Promise<boolean> {
  if (executor.book.quantity(symbol).isZero()) return false;
  await closeAndWait(executor, [[symbol, FLATTEN_OWNER]], reason, false, clock, waitMs);
  return true;
}

async function closeAndWait(
  executor: Executor,
  closing: readonly (readonly [SecuritySymbol, string])[],
  reason: string,
  /** The stop's own closing orders, taken after the intake closed; a person's flatten is an ordinary intent. */
  onStop: boolean,
  clock: Clock,
  waitMs: number,
): Promise<readonly SecuritySymbol[]> {
  for (const [symbol, owner] of closing) {
    const intent = { kind: 'close', symbol, reason } as const;
    if (onStop) executor.enqueueOnStop(owner, intent);
    else executor.enqueue(owner, intent);
  }
  await executor.settled();
  const symbols = closing.map(([symbol]) => symbol);
  const working = (): boolean => symbols.some((symbol) => executor.tracker.open(undefined, symbol).length > 0);
  if (!working()) return symbols;
  await new Promise<void>((resolve) => {
    const timer = clock.setTimeout(finish, waitMs);
    const changes = executor.flow.changes.subscribe(() => {
      if (!working()) finish();
    });
    function finish(): void {
      timer.cancel();
      changes.unsubscribe();
      resolve();
    }
  });
  return symbols;
}
