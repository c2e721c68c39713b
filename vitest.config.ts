import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through the "@signet/source" export condition.
const conditions = ['@signet/source', ...defaultServerConditions];

// Shared by every tier that runs against real infrastructure.
const infrastructure = {
  globalSetup: ['test/harness/global-setup.ts'],
  // One shared JetStream stream and durable consumer names: files run one at a time.
  fileParallelism: false,
  testTimeout: 60_000,
  hookTimeout: 120_000,
};

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: [
            'services/*/src/**/*.test.ts',
            'packages/*/src/**/*.test.ts',
            'proto/**/*.test.ts',
            'scripts/**/*.test.ts',
            'test/chart/**/*.test.ts',
          ],
        },
      },
      // The tiers below run against the real infrastructure globalSetup finds (started once, shared),
      // on one shared JetStream stream with the services' own durable consumer names: files run one at a
      // time within a tier, and each tier waits for the one before it (sequence.groupOrder).
      {
        extends: true,
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          // One service (and the services it needs) against real infrastructure; may read its own database and bucket.
          include: ['services/*/test/**/*.int.test.ts', 'packages/*/test/**/*.int.test.ts', 'test/infra/**/*.int.test.ts'],
          ...infrastructure,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          sequence: { groupOrder: 2 },
          // Cross-service flows through the gateway's public HTTP API and public events only.
          include: ['test/e2e/*.test.ts'],
          ...infrastructure,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          sequence: { groupOrder: 3 },
          include: ['test/e2e/browser/**/*.test.ts'],
          ...infrastructure,
        },
      },
    ],
  },
});
