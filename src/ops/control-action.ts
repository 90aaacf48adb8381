// A person's action on a bot (dashboard or Telegram), done through its control and kept in its journal as a
// 'control' event: what was asked, by which channel (the dashboard's client address, the Telegram chat), and
// the outcome (done or refused, the message, how many orders were cancelled when known). Refusals are kept
// too: the journal is the audit trail of what people asked for.
import type { SecuritySymbol } from '../domain/index.js';
import type { Logger } from '../log/logger.js';
import type { BotControl, ControlOutcome } from './control.js';

export type ControlAction =
  | { readonly name: 'cancel' | 'pause' | 'resume' | 'run'; readonly target: string }
  | { readonly name: 'flatten'; readonly target: SecuritySymbol }
  | { readonly name: 'trip'; readonly reason: string }
  | { readonly name: 'reset' };

/** Who asked: the channel, and the dashboard client's address or the Telegram chat. */
export type ControlActor =
  | { readonly channel: 'dashboard'; readonly address: string | undefined }
  | { readonly channel: 'telegram'; readonly chatId: number };

/** The journal event type of a person's action. */
export const CONTROL_EVENT = 'control';

/** Does the action, then records it (a failure to record is logged: the action is done either way). */
export async function performControl(
  control: BotControl,
  action: ControlAction,
  by: ControlActor,
  logger: Logger,
): Promise<ControlOutcome> {
  const outcome = await dispatch(control, action);
  const { name, ...what } = action;
  try {
    control.recordControl({
      action: name,
      ...what,
      by: by.channel,
      ...(by.channel === 'telegram' ? { chatId: by.chatId } : by.address === undefined ? {} : { address: by.address }),
      done: outcome.done,
      message: outcome.message,
      ...(outcome.cancelled === undefined ? {} : { cancelled: outcome.cancelled }),
    });
  } catch (error) {
    logger.error(
      { action: name, error: error instanceof Error ? error.message : String(error) },
      'cannot record the action in the journal',
    );
  }
  return outcome;
}

function dispatch(control: BotControl, action: ControlAction): Promise<ControlOutcome> {
  switch (action.name) {
    case 'cancel':
      return control.cancelOrder(action.target);
    case 'flatten':
      return control.flatten(action.target);
    case 'pause':
      return control.pauseJob(action.target);
    case 'resume':
      return control.resumeJob(action.target);
    case 'run':
      return control.runJobNow(action.target);
    case 'trip':
      return control.tripKillSwitch(action.reason);
    case 'reset':
      return control.resetKillSwitch();
  }
}
