import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through the "@signet/source" export condition.
const conditions = ['@signet/source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['services/*/src/**/*.test.ts', 'proto/**/*.test.ts', 'scripts/**/*.test.ts', 'test/chart/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['services/*/test/**/*.int.test.ts', 'test/e2e/**/*.test.ts'],
          globalSetup: ['test/harness/global-setup.ts'],
          // One shared JetStream stream and durable consumer names: files run one at a time.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
