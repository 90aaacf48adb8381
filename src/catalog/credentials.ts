// Where the catalog's credentials come from: CATALOG_TOKENS / CATALOG_API_KEYS and an optional --auth JSON file.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

export interface Credentials {
  /** Accepted as `Authorization: Bearer <token>`. */
  readonly tokens: readonly string[];
  /** Accepted as `X-API-Key: <key>`. */
  readonly apiKeys: readonly string[];
}

export class CredentialsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialsError';
  }
}

const secretSchema = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(4096, 'must be at most 4096 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces (it travels in an HTTP header)');

/** The --auth file: {"tokens": ["…"], "apiKeys": ["…"]}, either list may be left out. */
export const credentialsFileSchema = z.strictObject({
  tokens: z.array(secretSchema, { error: 'must be an array of strings' }).default([]),
  apiKeys: z.array(secretSchema, { error: 'must be an array of strings' }).default([]),
});

export const CREDENTIALS_HELP =
  'set CATALOG_TOKENS and/or CATALOG_API_KEYS (comma-separated), or pass --auth FILE holding {"tokens": ["…"], "apiKeys": ["…"]}';

export interface CredentialSources {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly authFile?: string | undefined;
}

/** Union of the environment and the file; refuses an empty result, naming every way to fix it. */
export async function loadCredentials(sources: CredentialSources): Promise<Credentials> {
  const fromFile = sources.authFile === undefined ? { tokens: [], apiKeys: [] } : await readCredentialsFile(sources.authFile);
  const tokens = [...fromList('CATALOG_TOKENS', sources.env['CATALOG_TOKENS']), ...fromFile.tokens];
  const apiKeys = [...fromList('CATALOG_API_KEYS', sources.env['CATALOG_API_KEYS']), ...fromFile.apiKeys];
  if (tokens.length === 0 && apiKeys.length === 0) {
    const where = sources.authFile === undefined ? '' : ` (${sources.authFile} lists none)`;
    throw new CredentialsError(`catalog: refusing to start without credentials${where}: ${CREDENTIALS_HELP}`);
  }
  return { tokens, apiKeys };
}

export async function readCredentialsFile(path: string): Promise<Credentials> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CredentialsError(`${path}: cannot read the credentials file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CredentialsError(`${path}: not valid JSON (${(error as Error).message}); expected {"tokens": ["…"], "apiKeys": ["…"]}`);
  }
  const result = credentialsFileSchema.safeParse(json);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const field =
        issue.code === 'unrecognized_keys'
          ? issue.keys.join(', ')
          : issue.path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('');
      // Never echo a secret's value; the field path is enough to find it.
      const message = issue.code === 'unrecognized_keys' ? 'unknown field (expected tokens, apiKeys)' : issue.message;
      return `${field.replace(/^\./, '') || '(top level)'}: ${message}`;
    });
    throw new CredentialsError(`${path}: ${problems.join('; ')}`);
  }
  return result.data;
}

function fromList(variable: string, value: string | undefined): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  entries.forEach((entry, index) => {
    const result = secretSchema.safeParse(entry);
    if (!result.success) throw new CredentialsError(`${variable}: entry ${index + 1} ${result.error.issues[0]?.message ?? 'is invalid'}`);
  });
  return entries;
}
