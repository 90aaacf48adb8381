// The dashboard's token: 32 random bytes (base64url), generated on first start and kept in a file only its
// owner may read (mode 600). A file readable by others is tightened, with a warning: the token lets anyone
// who has it trade the account.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, openSync, readFileSync, statSync, writeSync, closeSync } from 'node:fs';
import { dirname } from 'node:path';
import { InvalidInputError } from '../domain/errors.js';
import type { Logger } from '../log/logger.js';

export interface UiToken {
  readonly token: string;
  /** True when this start generated it (it is then shown once). */
  readonly created: boolean;
  readonly file: string;
}

const MIN_LENGTH = 16;

export function loadOrCreateToken(file: string, logger: Logger): UiToken {
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new InvalidInputError(`--ui-token-file: cannot read ${file}: ${(error as Error).message}`, '--ui-token-file');
  }
  if (text !== undefined) {
    const token = text.trim();
    if (token.length < MIN_LENGTH || /\s/.test(token))
      throw new InvalidInputError(
        `--ui-token-file: ${file} must hold one token of at least ${MIN_LENGTH} characters without spaces (delete it to have one generated)`,
        '--ui-token-file',
      );
    const mode = statSync(file).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      chmodSync(file, 0o600);
      logger.warn({ file, mode: mode.toString(8) }, 'the dashboard token file was readable by others; its mode is now 600');
    }
    return { token, created: false, file };
  }
  const token = randomBytes(32).toString('base64url');
  mkdirSync(dirname(file), { recursive: true });
  // Created with its final mode: there is no moment when others could read it.
  const descriptor = openSync(file, 'wx', 0o600);
  try {
    writeSync(descriptor, `${token}\n`);
  } finally {
    closeSync(descriptor);
  }
  return { token, created: true, file };
}
