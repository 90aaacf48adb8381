// Adds dividends and splits to the text of an actions.csv, keeping what it holds: the new rows follow its
// header's column order, and an action it already has is not added again.
import type { CorporateAction } from '../../domain/corporate-action.js';
import { actionKey, parseActionsFile } from './corporate-actions-file.js';

export const ACTIONS_HEADER = 'symbol,date,kind,value';

/** The text with the actions it lacks appended (oldest first), and those actions; `source` names it in errors. */
export function withActions(
  text: string | undefined,
  actions: readonly CorporateAction[],
  source: string,
): { readonly text: string; readonly added: readonly CorporateAction[] } {
  const base = text ?? `${ACTIONS_HEADER}\n`;
  const known = new Set(parseActionsFile(base, source).map(actionKey));
  const added = [...actions]
    .sort((a, b) => (a.exDate < b.exDate ? -1 : a.exDate > b.exDate ? 1 : 0))
    .filter((action) => {
      const key = actionKey(action);
      if (known.has(key)) return false;
      known.add(key);
      return true;
    });
  if (added.length === 0) return { text: base, added };
  const header = (base.split(/\r?\n/, 1)[0] ?? '').split(',').map((name) => name.trim().toLowerCase());
  const newline = base.includes('\r\n') ? '\r\n' : '\n';
  const rows = added.map((action) => {
    const cells: Record<string, string> = {
      symbol: action.symbol,
      date: action.exDate,
      kind: action.kind,
      value: (action.kind === 'dividend' ? action.perShare : action.ratio).toString(),
    };
    return header.map((name) => cells[name] ?? '').join(',') + newline;
  });
  return { text: `${base}${base.endsWith('\n') ? '' : newline}${rows.join('')}`, added };
}
