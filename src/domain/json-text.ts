// JSON a person wrote (a risk config, a project file), parsed by JSON.parse; when it is not JSON, the error
// says where: JSON.parse's messages on Node 20 quote a snippet but give no line, so jsonc-parser's scanner
// finds the first fault's line and column. The scanner is loaded only then: every command loads this
// module, and few ever meet a broken file.
import type { ParseError } from 'jsonc-parser';
import { InvalidInputError } from './errors.js';

/** The value of `text`, or an InvalidInputError (for `field`) naming `file:line:column` and the fault. */
export async function parseJsonText(text: string, file: string, field: string): Promise<unknown> {
  try {
    return JSON.parse(text);
  } catch (error) {
    const fault = await faultOf(text);
    throw new InvalidInputError(`${file}${fault ?? `: not valid JSON (${(error as Error).message})`}`, field);
  }
}

/** ":LINE:COLUMN: not valid JSON (what is wrong)" of the first fault, undefined when the scanner sees none. */
async function faultOf(text: string): Promise<string | undefined> {
  const { parse, printParseErrorCode } = await import('jsonc-parser');
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first === undefined) return undefined;
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = first.offset - (before.lastIndexOf('\n') + 1) + 1;
  const reason = printParseErrorCode(first.error)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return `:${line}:${column}: not valid JSON (${reason})`;
}
