// The files of a new user project (`trader init`): what each holds, as text, before anything is written.
import { readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { INSTALLATION_ROOT, PACKAGE_NAME, installationVersion } from '../../strategy/installation.js';
import { BUNDLED_DATA, PROJECT_FILE } from './config.js';
import { strategySource, TEMPLATE_PACKAGES, TEMPLATES, type Template } from './templates.js';

export interface ProjectFile {
  /** Relative to the project folder. */
  readonly path: string;
  readonly content: string | Buffer;
}

export const EXAMPLE_STRATEGY = 'strategies/example.ts';

/** TypeScript for `npx tsc --noEmit` in the project (not a dependency of the runtime, so not in ours). */
const TYPESCRIPT_RANGE = '^5.9.0';
/** Node's own types for the project's tsc: console, import.meta.url, node:fs in a strategy (Node ≥ 20). */
const NODE_TYPES_RANGE = '^20.19.0';

export async function projectFiles(folder: string, template: Template): Promise<ProjectFile[]> {
  const name = packageName(basename(folder));
  return [
    { path: 'package.json', content: await packageJson(name, template) },
    { path: 'tsconfig.json', content: `${JSON.stringify(TSCONFIG, null, 2)}\n` },
    { path: PROJECT_FILE, content: `${JSON.stringify({ data: 'data', strategies: 'strategies' }, null, 2)}\n` },
    { path: EXAMPLE_STRATEGY, content: await strategySource(template, 'example') },
    { path: 'data/SPX.US.csv', content: await readFile(join(BUNDLED_DATA, 'SPX.US.csv')) },
    { path: 'data/README.md', content: await readFile(join(BUNDLED_DATA, 'README.md')) },
    { path: 'risk.json', content: `${JSON.stringify(RISK, null, 2)}\n` },
    { path: 'schedule.yaml', content: SCHEDULE },
    { path: '.gitignore', content: GITIGNORE },
    { path: 'README.md', content: readme(name) },
  ];
}

/** npm's rules: lower case, no spaces; the folder's name made to fit. */
function packageName(folderName: string): string {
  const name = folderName
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  return name === '' ? 'trading-strategies' : name;
}

/**
 * How a new project depends on this package: its version range when this installation is an installed
 * package (under node_modules), this folder itself when it is a checkout of the repo (whose version a
 * registry may not have).
 */
export function packageSpec(root: string, version: string): string {
  return root.split(/[\\/]/).includes('node_modules') ? `^${version}` : `file:${resolve(root)}`;
}

async function packageJson(name: string, template: Template): Promise<string> {
  const ours = JSON.parse(await readFile(join(INSTALLATION_ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  // The packages the strategies import, at the ranges this version of the runtime is built with.
  const imported = new Set(['rxjs', 'zod', ...TEMPLATE_PACKAGES[template]]);
  const dependencies: Record<string, string> = { [PACKAGE_NAME]: packageSpec(INSTALLATION_ROOT, installationVersion()) };
  for (const dependency of [...imported].sort()) {
    const range = ours.dependencies[dependency];
    if (range !== undefined) dependencies[dependency] = range;
  }
  const manifest = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      backtest: `trader backtest ${EXAMPLE_STRATEGY}`,
      paper: `trader run ${EXAMPLE_STRATEGY} --from 2015-03-02 --speed 86400`,
      schedule: 'trader schedule schedule.yaml',
      typecheck: 'tsc --noEmit',
    },
    dependencies,
    devDependencies: { '@types/node': NODE_TYPES_RANGE, typescript: TYPESCRIPT_RANGE },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  },
  include: ['strategies'],
};

const RISK = {
  maxOrderNotional: 1_000_000,
  maxPositionPerSymbol: 1000,
  maxOrdersPerMinute: 30,
  dailyLossLimit: 50_000,
  maxDrawdown: 0.25,
};

const SCHEDULE = `# Paper trading on a schedule: npx trader schedule schedule.yaml (Ctrl-C stops it gracefully).
# npx trader status schedule.yaml shows what it is doing. The built-in simulator replays data/ at a market hour
# per second; cron times are read on the wall clock in New York and jobs fire only on US trading days.
# Set mode: live (and the LONGPORT_* variables) to trade your real account.
timezone: America/New_York
mode: paper
stateDir: state
paper:
  data: [data]
  from: 2010-01-04          # earlier bars are history: strategies warm up on them
  speed: 3600
risk: { maxOrderNotional: 1000000, maxPositionPerSymbol: 1000, dailyLossLimit: 50000, maxDrawdown: 0.25 }
jobs:
  - name: example           # trades from the open to shortly before the close
    strategy: ${EXAMPLE_STRATEGY}
    symbols: [SPX.US]
    start: "30 9 * * 1-5"
    stop: "55 15 * * 1-5"
    flattenAtStop: false
`;

const GITIGNORE = `node_modules/
state/
*.sqlite
*.sqlite-journal
*.sqlite-wal
*.sqlite-shm
report*.html
`;

function readme(name: string): string {
  return `# ${name}

Trading strategies on [longport-trader](https://www.npmjs.com/package/longport-trader): backtests over candle
history, paper trading against its built-in simulated broker, live trading on the LongPort OpenAPI, and
schedules.

\`\`\`sh
npm install                                             # once
npx trader backtest ${EXAMPLE_STRATEGY}                # backtest the example on data/ (20 years of S&P 500 bars)
npx trader backtest ${EXAMPLE_STRATEGY} --report report.html --risk risk.json
npx trader run ${EXAMPLE_STRATEGY} --from 2015-03-02 --speed 86400 --for 1m   # paper trading, replaying data/
npx trader schedule schedule.yaml                       # paper trading on cron times (Ctrl-C stops it)
npx trader new strategy my-idea --template rsi          # another strategy: strategies/my-idea.ts
npx tsc --noEmit                                        # type-check the strategies
npx trader --help                                       # every command; each has --help with examples
\`\`\`

- \`strategies/\`: one file per strategy, \`export default defineStrategy({...})\` from \`longport-trader\`.
  Templates: ${TEMPLATES.map((template) => `\`${template}\``).join(', ')}.
- \`data/\`: candle CSV files named \`SYMBOL.csv\` (\`700.HK.csv\`, \`AAPL.US.csv\`); a backtest uses every
  symbol in the folder unless \`--symbols\` narrows it. \`npx trader data fetch AAPL.US --period day --from
  2020-01-01 --to 2024-12-31\` downloads more into it with your LongPort credentials.
- \`${PROJECT_FILE}\`: this project's defaults (\`data\`: the default \`--data\`; \`strategies\`: where
  \`trader new\` writes), relative to this folder, wherever you run the commands from.
- \`risk.json\`: limits for \`--risk risk.json\` (order size, position, orders per minute, kill switches).
- \`schedule.yaml\`: the jobs of \`trader schedule\`.
- Live trading: \`npx trader run ${EXAMPLE_STRATEGY} --live --yes\` with \`LONGPORT_APP_KEY\`,
  \`LONGPORT_APP_SECRET\` and \`LONGPORT_ACCESS_TOKEN\` set.
`;
}
