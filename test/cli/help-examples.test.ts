// Every command's --help has Examples, and they can be pasted: descriptions are shell comments, and a command longer
// than the help's width is continued with ` \`, never cut over two lines that the shell would run as two.
import { describe, expect, it } from 'vitest';
import { commented, continued } from '../../src/cli/help-examples.js';
import { createParser } from '../../src/cli/main.js';

const COLUMNS = 80;
/** Every subcommand of the groups (the top-level commands are read from `trader --help`). */
const SUBCOMMANDS = [
  ...['submit', 'show', 'cancel', 'replace'].map((action) => ['order', action]),
  ...['list', 'create', 'update', 'delete'].map((action) => ['watchlist', action]),
  ...['list', 'download'].map((action) => ['statements', action]),
  ...['mine', 'show', 'create', 'replies', 'reply'].map((action) => ['topics', action]),
  ['token', 'refresh'],
  ['data', 'fetch'],
  ['data', 'convert'],
  ['catalog', 'serve'],
];

async function help(command: readonly string[]): Promise<string> {
  const args = [...command, '--help'];
  let output = '';
  await createParser(args, COLUMNS)
    .exitProcess(false)
    .parseAsync(args, {}, (_error, _argv, text) => {
      output = text;
    });
  return output;
}

/** The Examples section as [comment lines, command lines] blocks. */
function exampleBlocks(text: string): { comments: string[]; command: string[] }[] {
  const section = text.split('\nExamples:\n')[1]?.split('\n\n')[0] ?? '';
  const blocks: { comments: string[]; command: string[] }[] = [];
  for (const line of section.split('\n').filter((one) => one !== '')) {
    const last = blocks.at(-1);
    if (line.startsWith('  # ')) {
      if (last === undefined || last.command.length > 0) blocks.push({ comments: [line], command: [] });
      else last.comments.push(line);
    } else last?.command.push(line);
  }
  return blocks;
}

describe('help examples', () => {
  it('cut a long command between words, never inside quotes or between a flag and its value, with ` \\`', () => {
    const command = "trader optimize s.ts --param fast=2:50 --constraint 'maxDrawdown < 0.2' --min-trades 10";
    expect(continued(command, 40)).toBe("trader optimize s.ts --param fast=2:50 \\\n--constraint 'maxDrawdown < 0.2' \\\n--min-trades 10");
    expect(continued('trader account', 40)).toBe('trader account');
    expect(commented('Every order change of the account, one JSON object per line', 30)).toBe(
      '# Every order change of the\n# account, one JSON object per\n# line',
    );
  });

  it('exist for every command and subcommand, as comments and whole commands within the width', async () => {
    const top = (await help([])).split('\nCommands:\n')[1]!.split('\n\n')[0]!;
    const commands = [...top.matchAll(/^ {2}trader ([a-z-]+)/gm)].map((match) => [match[1]!]);
    let examples = 0;
    for (const command of [...commands, ...SUBCOMMANDS]) {
      const text = await help(command);
      for (const line of text.split('\n')) expect(line.length, `${command.join(' ')}: ${line}`).toBeLessThanOrEqual(COLUMNS);
      expect(text, `${command.join(' ')} --help has no examples`).toContain('\nExamples:\n');
      const blocks = exampleBlocks(text);
      const shown = blocks.map((block) => block.command.join('\n'));
      expect(new Set(shown).size, `${command.join(' ')}: an example shown twice`).toBe(shown.length);
      for (const { comments, command: lines } of blocks) {
        examples += 1;
        expect(comments.length, command.join(' ')).toBeGreaterThan(0);
        expect(lines.length, `${command.join(' ')}: ${comments.join(' ')}`).toBeGreaterThan(0);
        // Every line of a command but its last is continued.
        expect(lines.slice(0, -1).every((line) => line.endsWith(' \\'))).toBe(true);
        expect(lines.at(-1)!.endsWith('\\')).toBe(false);
        expect(lines[0]).toContain('trader ');
      }
    }
    expect(examples).toBeGreaterThan(100);
  });
});
