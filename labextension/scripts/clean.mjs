/**
 * Removes build outputs (lib/, the tsc build info, the built labextension and standalone bundle) before a production build.
 */
import { rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
for (const path of ['lib', 'tsconfig.tsbuildinfo', 'kernel_ext/labextension', 'kernel_ext/standalone']) {
  await rm(resolve(ROOT, path), { recursive: true, force: true });
}
