// Global setup of the e2e project: the tests run the `trader` binary, which runs dist/, so dist/ is rebuilt
// first whenever src/ changed since the last build (a second or two; nothing when it is fresh).
import { build } from '../../scripts/build.mjs';

export default async function buildDist(): Promise<void> {
  await build({ types: false, log: (line) => process.stderr.write(`${line}\n`) });
}
