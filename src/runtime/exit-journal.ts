// The exits strategies hold, kept in the run's journal so that a restart re-arms them: written when armed,
// when the position is first seen open, when a trailing stop's best price moves or an exit fires, and
// removed when the position closes (also when it closed after its last bar, as the run stopped). On start,
// after reconciliation has brought the positions in line with the broker, each kept row is re-armed for its
// strategy while its position is open (or its entry still working), and dropped, with a log line and a
// journal event, when the position closed while the run was down.
import { Price, type Clock, type Quantity, type SecuritySymbol } from '../domain/index.js';
import type { Logger } from '../log/logger.js';
import type { Journal, JournalExit } from '../store/journal.js';
import { EXIT_TAGS, type ExitTag } from '../strategy/exit-levels.js';
import type { ExitKeeper, HeldExits } from '../strategy/exits.js';

/** What the journal's exits are checked against: the reconciled positions and the orders still working. */
export interface ExitView {
  quantity(symbol: SecuritySymbol): Quantity;
  hasWorkingOrder(strategy: string, symbol: SecuritySymbol): boolean;
}

const TAGS: ReadonlySet<string> = new Set(Object.values(EXIT_TAGS));

export class ExitJournal {
  constructor(
    private readonly journal: Journal,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Writes a strategy's exits through to the journal as they change. */
  keeperFor(strategy: string): ExitKeeper {
    return {
      kept: (symbol, held) => this.journal.saveExit(this.row(strategy, symbol, held)),
      dropped: (symbol, why) => {
        this.journal.removeExit(strategy, symbol);
        this.logger.info({ strategy, symbol }, `exits of ${strategy} on ${symbol} dropped: ${why}`);
      },
    };
  }

  /**
   * The kept exits to re-arm, by strategy (only the strategies of this run; others' rows stay for a run that
   * has them). Call after the start-up reconciliation and before any bar reaches a strategy.
   */
  restore(view: ExitView, strategies: readonly string[]): ReadonlyMap<string, ReadonlyMap<SecuritySymbol, HeldExits>> {
    const restored = new Map<string, Map<SecuritySymbol, HeldExits>>();
    const running = new Set(strategies);
    for (const row of this.journal.exits()) {
      const { strategy, symbol } = row;
      // Expected where runs share a journal (the scheduler's jobs); a renamed strategy shows up here too.
      if (!running.has(strategy)) {
        this.logger.info(
          { strategy, symbol, exits: row.exits },
          `exits of ${strategy} on ${symbol} not re-armed: that strategy is not in this run (they stay in the journal for a run that has it)`,
        );
        continue;
      }
      const why = this.whyDrop(row, view);
      if (why !== undefined) {
        this.drop(row, why);
        continue;
      }
      const held: HeldExits = {
        exits: row.exits,
        direction: row.direction === undefined ? undefined : row.direction === 'long' ? 1 : -1,
        best: row.best === undefined ? Number.NaN : Number(row.best.toString()),
        fired: TAGS.has(row.fired ?? '') ? (row.fired as ExitTag) : undefined,
      };
      let own = restored.get(strategy);
      if (own === undefined) restored.set(strategy, (own = new Map()));
      own.set(symbol, held);
      const detail = { strategy, symbol, exits: row.exits, direction: row.direction, best: row.best?.toString(), fired: row.fired };
      this.journal.recordEvent(this.clock.now(), 'exits-rearmed', detail);
      this.logger.info(detail, `re-armed exits of ${strategy} on ${symbol}${heldText(row, view.quantity(symbol))}`);
    }
    return restored;
  }

  /**
   * At a clean stop: forgets this run's exits of positions that closed after their last bar was checked
   * (flattened on stop, or an exit's close that filled late), so the journal keeps what a restart re-arms.
   */
  forgetClosed(view: ExitView, strategies: readonly string[]): void {
    const running = new Set(strategies);
    for (const row of this.journal.exits())
      if (running.has(row.strategy) && row.direction !== undefined && view.quantity(row.symbol).isZero())
        this.drop(row, 'the position closed as the run stopped');
  }

  private whyDrop(row: JournalExit, view: ExitView): string | undefined {
    const quantity = view.quantity(row.symbol);
    const side = quantity.isZero() ? undefined : quantity.isNegative() ? 'short' : 'long';
    if (row.direction === undefined)
      return side === undefined && !view.hasWorkingOrder(row.strategy, row.symbol)
        ? 'its entry did not fill and no order of it is working'
        : undefined;
    if (side === undefined) return 'the position closed while the run was down';
    if (side !== row.direction) return `the ${row.direction} position was reversed while the run was down`;
    return undefined;
  }

  private drop(row: JournalExit, why: string): void {
    const { strategy, symbol } = row;
    this.journal.removeExit(strategy, symbol);
    this.journal.recordEvent(this.clock.now(), 'exits-dropped', { strategy, symbol, exits: row.exits, reason: why });
    this.logger.info({ strategy, symbol, exits: row.exits }, `dropped the exits of ${strategy} on ${symbol}: ${why}`);
  }

  private row(strategy: string, symbol: SecuritySymbol, held: HeldExits): JournalExit {
    return {
      strategy,
      symbol,
      exits: held.exits,
      direction: held.direction === undefined ? undefined : held.direction === 1 ? 'long' : 'short',
      // The float is the shortest text of a bar's price or an average cost: Price keeps it exactly.
      best: Number.isNaN(held.best) ? undefined : Price.of(held.best, 'best'),
      fired: held.fired,
      updatedAt: this.clock.now(),
    };
  }
}

/** How the re-armed exits stand, for the log line. */
function heldText(row: JournalExit, quantity: Quantity): string {
  if (quantity.isZero()) return ', waiting for its entry to fill';
  const side = `${quantity.isNegative() ? 'short' : 'long'} ${quantity.abs().toString()}`;
  const best = row.best === undefined ? '' : `, best price ${row.best.toString()}`;
  const fired = row.fired === undefined ? '' : `; ${row.fired} reached before the restart: closing again`;
  return ` (${side}${best}${fired})`;
}
