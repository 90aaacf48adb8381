// listOf exists because a list made with Array.prototype.map changes its layout once the function making it is
// optimised, which throws away code compiled for the earlier layout in every later run of a research worker
// (bench/README.md, "Lists made per run"). Checked in a real node with V8's test hooks, on dist/.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const LIST_OF = new URL('../../dist/domain/list-of.js', import.meta.url).href;
const folder = mkdtempSync(join(tmpdir(), 'list-layout-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Layout {
  readonly optimized: boolean;
  readonly sameLayout: boolean;
}

/** Makes a three-item list, then more until the maker is optimised: does a list it makes then have the first's layout? */
function layouts(): Record<'listOf' | 'map', Layout> {
  const script = join(folder, 'layout.mjs');
  writeFileSync(
    script,
    `import { listOf } from ${JSON.stringify(LIST_OF)};
const makers = {
  listOf: (items) => listOf(items, (item) => ({ item })),
  map: (items) => items.map((item) => ({ item })),
};
const out = {};
for (const [name, make] of Object.entries(makers)) {
  const items = [1, 2, 3];
  const first = make(items);
  // Until the optimising compiler (on a background thread) has installed its code, then a few more.
  const optimized = () => (%GetOptimizationStatus(make) & 16) !== 0;
  for (let round = 0; round < 50000000 && !optimized(); round += 1) make(items);
  let last = first;
  for (let round = 0; round < 1000; round += 1) last = make(items);
  out[name] = { optimized: optimized(), sameLayout: %HaveSameMap(first, last) };
}
console.log(JSON.stringify(out));
`,
  );
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', script], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as Record<'listOf' | 'map', Layout>;
}

describe('lists made per run', () => {
  it('keep one layout with listOf whether the code making them runs interpreted or optimised', () => {
    const { listOf, map } = layouts();
    expect(listOf).toEqual({ optimized: true, sameLayout: true });
    // When this fails, map keeps its layout on this node too and listOf can go back to being items.map.
    expect(map, 'Array.prototype.map changes the layout of its lists once optimised').toEqual({ optimized: true, sameLayout: false });
  });
});
