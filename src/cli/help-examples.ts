// The Examples of every --help, laid out to be pasted: each description as shell comments, then its command
// whole, continued with ` \` where it is longer than the terminal (yargs' two columns cut commands mid-way,
// and a command cut over two lines runs as two when pasted).
import type { Argv } from 'yargs';

/** Every later `.example(command, description)` on `parser` (commands call it in their builders) is laid out so. */
export function pasteableExamples(parser: Argv, columns: number): void {
  const example = parser.example.bind(parser);
  // yargs indents each example by 2 and keeps 2 free at the right; ' \' ends a continued line.
  const width = columns - 6;
  parser.example = ((command: string, description: string) =>
    example(`${commented(description, width)}\n${continued(command.replaceAll('$0', 'trader'), width)}`, '')) as Argv['example'];
}

/** `command` cut between words (never inside quotes, nor between a flag and its value) into lines joined by ` \`. */
export function continued(command: string, width: number): string {
  return fill(units(words(command)), width).join(' \\\n');
}

/** `text` as `# ` lines of at most `width`. */
export function commented(text: string, width: number): string {
  return fill(text.split(' '), width - 2)
    .map((line) => `# ${line}`)
    .join('\n');
}

function fill(parts: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const part of parts) {
    if (line !== '' && line.length + 1 + part.length > width) {
      lines.push(line);
      line = part;
    } else line = line === '' ? part : `${line} ${part}`;
  }
  return [...lines, line];
}

/** The words of a shell command: split at spaces outside single and double quotes. */
function words(command: string): string[] {
  return command.match(/(?:[^\s'"]+|'[^']*'|"[^"]*")+/g) ?? [];
}

/** `--flag value` kept as one unit. */
function units(all: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < all.length; index += 1) {
    const word = all[index]!;
    const next = all[index + 1];
    const takesNext = word.startsWith('--') && !word.includes('=') && next !== undefined && !next.startsWith('-');
    joined.push(takesNext ? `${word} ${next}` : word);
    if (takesNext) index += 1;
  }
  return joined;
}
