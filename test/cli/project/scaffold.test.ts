import { describe, expect, it } from 'vitest';
import { packageSpec } from '../../../src/cli/project/scaffold.js';

describe("a new project's dependency on this package", () => {
  it('is the version range when this installation is an installed package', () => {
    expect(packageSpec('/home/me/bot/node_modules/longport-trader/', '0.3.1')).toBe('^0.3.1');
    expect(packageSpec('C:\\Users\\me\\AppData\\Roaming\\npm\\node_modules\\longport-trader\\', '0.3.1')).toBe('^0.3.1');
  });

  it('is the folder itself when this installation is a checkout of the repo (a registry may not have its version)', () => {
    expect(packageSpec('/home/me/src/longport-trader/', '0.3.1')).toBe('file:/home/me/src/longport-trader');
  });
});
