import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Build and browser tests run real builds and a real Chromium: one file at a time keeps the
    // two-core CI machine from timing out, and builds from racing on Astro's caches.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
