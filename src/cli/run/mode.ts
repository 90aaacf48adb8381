// Paper or live: paper unless the user asks for live AND confirms it AND has credentials. Every reason a
// live run is refused is named at once (the flag or the variable), so one try tells the user everything.
import { InvalidInputError } from '../../domain/errors.js';
import { CREDENTIAL_VARIABLES, configFromEnv, type OpenApiConfig } from '../../openapi/config.js';

export interface ModeFlags {
  readonly paper?: boolean | undefined;
  readonly live?: boolean | undefined;
  readonly yes?: boolean | undefined;
}

export type RunMode = { readonly mode: 'paper' } | { readonly mode: 'live'; readonly config: OpenApiConfig };

type Environment = Readonly<Record<string, string | undefined>>;

export function chooseMode(flags: ModeFlags, env: Environment = process.env): RunMode {
  if (flags.live !== true) {
    if (flags.yes === true)
      throw new InvalidInputError(
        '--yes confirms --live and means nothing without it; leave it out for a paper run, or add --live',
        '--yes',
      );
    return { mode: 'paper' };
  }
  if (flags.paper === true) throw new InvalidInputError('--paper and --live contradict each other: choose one', '--live');
  const problems: string[] = [];
  if (flags.yes !== true) problems.push('add --yes to confirm that real orders with real money are wanted');
  const missing = CREDENTIAL_VARIABLES.filter((name) => (env[name]?.trim() ?? '') === '');
  if (missing.length > 0) problems.push(`set ${missing.join(', ')} (your LongPort app key, app secret and access token)`);
  if (problems.length > 0)
    throw new InvalidInputError(`refusing to trade live: ${problems.join('; and ')}`, flags.yes !== true ? '--yes' : missing[0]);
  return { mode: 'live', config: configFromEnv(env) };
}
