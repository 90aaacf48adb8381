// Worker thread entry of the local pool: the compiled worker in dist/, or the TypeScript source through tsx
// when running from src/ (tests, benchmarks).
import { existsSync } from 'node:fs';

const compiled = new URL('./worker.js', import.meta.url);
let worker;
if (existsSync(compiled)) worker = await import(compiled.href);
else {
  const { register } = await import('tsx/esm/api');
  register();
  worker = await import('./worker.ts');
}
export default worker.default;
export const runSplitTask = worker.runSplitTask;
