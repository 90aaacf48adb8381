#!/usr/bin/env node
// Entry point of the `trader` command: runs the compiled code in dist/ (built from src/ by `npm run build`,
// which `npm ci` runs through the prepare script).
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('error: dist/ is not built; run `npm run build` (npm ci and npm install run it)\n');
  process.exit(1);
}
await import(main.href);
