// Import rules of DESIGN.md, checked by test/architecture.test.ts.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment:
        'src/domain imports nothing else from src, no RxJS and no I/O modules: only decimal.js, the zone rules of temporal-polyfill and the JSON scanner of jsonc-parser.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: {
        pathNot: [
          '^src/domain/',
          'node_modules/decimal\\.js',
          'node_modules/temporal-(polyfill|spec|utils)/',
          'node_modules/jsonc-parser/',
        ],
      },
    },
    {
      name: 'strategy-and-risk-see-only-the-domain',
      comment: 'src/strategy and src/risk import only src/domain from the rest of src.',
      severity: 'error',
      from: { path: '^src/(strategy|risk)/' },
      to: { path: '^src/', pathNot: ['^src/domain/', '^src/$1/'] },
    },
    {
      name: 'nothing-imports-the-cli',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'only-the-cli-uses-ops',
      comment: 'src/ops (dashboard, metrics, chat bots) sits beside the CLI, above runtime and schedule: only the CLI imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/ops/', '^src/cli/'] },
      to: { path: '^src/ops/' },
    },
    {
      name: 'only-the-cli-uses-research',
      comment: 'src/research (optimize, walk-forward, check, pools, queue) sits beside the cli, above runtime and backtest.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/research/'] },
      to: { path: '^src/research/' },
    },
    {
      name: 'catalog-is-a-separate-product',
      comment: 'The artist catalog shares tooling, not code, with the trading runtime.',
      severity: 'error',
      from: { path: '^src/catalog/' },
      to: { path: '^src/', pathNot: '^src/catalog/' },
    },
    {
      name: 'trading-does-not-use-the-catalog',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/catalog/', '^src/cli/'] },
      to: { path: '^src/catalog/' },
    },
    {
      name: 'package-entries-are-leaves',
      comment: 'src/index.ts and src/api/ are what users import (the exports map); the code itself never imports them.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: ['^src/index\\.ts$', '^src/api/'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { pathNot: '^src/domain/' } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
