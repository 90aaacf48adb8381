// Trials run one after another in this thread: for a small run, starting worker threads (each loading the
// engine and the strategy afresh) takes longer than the trials themselves.
import type { TrialExecutor } from './executor.js';
import { runTrial, type TrialContext, type TrialSettings } from './trial.js';

export function createInProcessExecutor(context: TrialContext, settings: TrialSettings): TrialExecutor {
  return {
    async run(trials, onOutcome, signal) {
      for (const trial of trials) {
        if (signal.aborted) return;
        onOutcome(await runTrial(context, settings, trial));
        // A turn of the event loop between trials, so Ctrl-C is seen.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },
    async close() {},
  };
}
