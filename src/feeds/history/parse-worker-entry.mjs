// Thread entry of the parallel candle-file load: the compiled helper in dist/, or its TypeScript source through tsx
// when running from src/ (tests).
import { existsSync } from 'node:fs';

if (existsSync(new URL('./parse-worker.js', import.meta.url))) await import('./parse-worker.js');
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./parse-worker.ts');
}
