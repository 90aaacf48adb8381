// Strategy templates of `trader init` and `trader new strategy`: the example strategies shipped with the
// package (strategies/*.ts, which import from 'longport-trader' as a user's file does), renamed, or a blank one.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidInputError } from '../../domain/errors.js';
import { INSTALLATION_ROOT } from '../../strategy/installation.js';

/** Template name → the shipped strategy it copies (blank is written here). */
const SHIPPED = {
  sma: 'sma-crossover',
  rsi: 'rsi-mean-reversion',
  breakout: 'breakout',
  dca: 'dca',
  bracket: 'sma-bracket',
} as const;

export const TEMPLATES = [...(Object.keys(SHIPPED) as (keyof typeof SHIPPED)[]), 'blank'] as const;
export type Template = (typeof TEMPLATES)[number];

/** Packages a template's file imports besides longport-trader (the project's package.json lists them). */
export const TEMPLATE_PACKAGES: Readonly<Record<Template, readonly string[]>> = {
  sma: ['rxjs', 'zod'],
  rsi: ['rxjs', 'zod'],
  breakout: ['trading-signals'],
  dca: ['zod'],
  bracket: [],
  blank: [],
};

/** What each template is, for the help of `trader init` and `trader new`. */
const DESCRIPTIONS: Readonly<Record<Template, string>> = {
  sma: 'SMA crossover',
  rsi: 'RSI mean reversion',
  breakout: 'Donchian breakout',
  dca: 'dollar-cost averaging',
  bracket: 'SMA trend with a stop-loss, a take-profit and a trailing stop',
  blank: 'a blank callback strategy',
};

/** "sma (SMA crossover), rsi (RSI mean reversion), …": every template, each with what it is. */
export function templateChoices(): string {
  return TEMPLATES.map((template) => `${template} (${DESCRIPTIONS[template]})`).join(', ');
}

export function parseTemplate(text: string): Template {
  const template = TEMPLATES.find((known) => known === text);
  if (template === undefined) throw new InvalidInputError(`unknown template "${text}" (use ${TEMPLATES.join(', ')})`, 'template');
  return template;
}

/** A strategy name: used as its file name and its `name` (letters, digits, "-" and "_"). */
export function parseStrategyName(text: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(text))
    throw new InvalidInputError(`strategy name "${text}" must start with a letter and hold only letters, digits, "-" and "_"`, 'name');
  return text;
}

/** The source of a new strategy file named `name` from a template. */
export async function strategySource(template: Template, name: string): Promise<string> {
  if (template === 'blank') return blankStrategy(name);
  const shipped = SHIPPED[template];
  const text = await readFile(join(INSTALLATION_ROOT, 'strategies', `${shipped}.ts`), 'utf8');
  return text.replace(`name: '${shipped}'`, `name: '${name}'`);
}

function blankStrategy(name: string): string {
  return `// ${name}: describe what this strategy does and why.
import { defineStrategy } from 'longport-trader';

export default defineStrategy({
  name: '${name}',
  description: 'Buys once on the first bar and holds.',
  params: { quantity: 10 },
  symbols: ['SPX.US'],
  period: 'day',
  // Called once per closed bar of every symbol, in time order. Return an intent (ctx.buy, ctx.sell, ctx.close,
  // ctx.target), a list of them, or nothing.
  onCandle(candle, ctx) {
    if (!ctx.positions.quantity(candle.symbol).isZero()) return undefined;
    return ctx.buy(ctx.params.quantity, { symbol: candle.symbol, reason: 'first bar' });
  },
});
`;
}
