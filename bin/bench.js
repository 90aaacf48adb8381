#!/usr/bin/env node
// `npm run bench [-- name ...]`: runs every bench/*.bench.ts (or those whose name contains a given word)
// one after another and lets each print its own figures.
import { readdir } from 'node:fs/promises';
import { register } from 'tsx/esm/api';

register();
const filters = process.argv.slice(2);
const folder = new URL('../bench/', import.meta.url);
const files = (await readdir(folder)).filter((name) => name.endsWith('.bench.ts')).sort();
const chosen = files.filter((name) => filters.length === 0 || filters.some((filter) => name.includes(filter)));
if (chosen.length === 0) {
  console.error(`no benchmark matches ${filters.join(', ')}; available: ${files.join(', ')}`);
  process.exit(2);
}
for (const name of chosen) {
  console.log(`\n== ${name}`);
  const module = await import(new URL(name, folder).href);
  await module.default();
}
