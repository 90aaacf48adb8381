// `trader token refresh`: trades the current access token for a new one and prints it as shell exports.
import type { CommandModule } from 'yargs';
import { systemClock } from '../../clock/system-clock.js';
import { timeFlag } from './flags.js';
import { line, present } from './present.js';
import { withOpenApi, type GlobalFlags } from './session.js';

/** Access tokens live at most 90 days (PROTOCOL.md §3). */
export const TOKEN_LIFETIME_MS = 90 * 86_400_000;
const SHELL_SAFE = /^[A-Za-z0-9._~+/=:@%-]+$/;

interface RefreshArgs extends GlobalFlags {
  readonly expiresAt?: string;
}

const refresh: CommandModule<object, RefreshArgs> = {
  command: 'refresh',
  describe: 'Get a new access token and print it as `export` lines (eval them, or paste into your env file)',
  builder: (yargs) =>
    yargs
      .option('expires-at', { type: 'string', describe: 'When the new token should expire (RFC 3339 or YYYY-MM-DD); default in 90 days' })
      .example('eval "$($0 token refresh)"', 'Refresh and use the new token in this shell')
      .example('$0 token refresh --expires-at 2025-06-30 --json', 'As JSON'),
  handler: async (args) => {
    const expiresAt = args.expiresAt === undefined ? systemClock.now() + TOKEN_LIFETIME_MS : timeFlag(args.expiresAt, '--expires-at');
    const token = await withOpenApi(args, (client) => client.refreshToken(expiresAt));
    const expiry = new Date(token.expiresAt).toISOString();
    const issued = token.issuedAt === undefined ? undefined : new Date(token.issuedAt).toISOString();
    present(args, { token: token.token, expiresAt: expiry, issuedAt: issued }, () => {
      line(`export LONGPORT_ACCESS_TOKEN=${shellWord(token.token)}`);
      line(`export LONGPORT_ACCESS_TOKEN_EXPIRED_AT=${expiry}`);
    });
  },
};

function shellWord(text: string): string {
  return SHELL_SAFE.test(text) ? text : `'${text.split("'").join(`'\\''`)}'`;
}

export const tokenCommand: CommandModule = {
  command: 'token <action>',
  describe: 'Access token lifetime: refresh',
  builder: (yargs) =>
    yargs
      .command(refresh)
      .demandCommand(1, 'Name an action: refresh.')
      .example('eval "$($0 token refresh)"', 'A new access token, loaded into this shell'),
  handler: () => undefined,
};
