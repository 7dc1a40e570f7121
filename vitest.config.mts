/**
 * Vitest configuration: renderer unit tests run in jsdom with the real wasm graphviz.
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'jsdom',
    include: ['labextension/tests/**/*.spec.ts'],
    setupFiles: ['labextension/tests/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // one jsdom for all the files (each test builds its own DOM): 64 s instead of 102 s here, the same 499 tests
    isolate: false
  }
});
