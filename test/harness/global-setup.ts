/**
 * Vitest globalSetup of the integration, e2e and browser tiers: finds real infrastructure and provides its URLs.
 * 1. URLs from the environment (MONGO_URL, NATS_URL, S3_ENDPOINT/S3_ACCESS_KEY/S3_SECRET_KEY,
 *    REDIS_URL, SMTP_URL, MAILPIT_URL) when all are set;
 * 2. else testcontainers (real MongoDB, MinIO, NATS, Redis, Mailpit images) when a Docker engine answers;
 * 3. else the local binaries of scripts/install.sh on free ports under a temporary folder.
 * Nothing is mocked at the infrastructure boundary.
 * It also builds the browser pages once (packages/web: the signing page, the dashboard, /verify), which
 * the gateway serves from their dist/: a fresh clone has none, and a page test would meet a 503.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { infraFromEnv, startLocalInfra, type InfraUrls } from './local-infra.js';
import { startContainers } from './containers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    infra: InfraUrls & { source: string };
  }
}

async function dockerAnswers(): Promise<boolean> {
  if (process.env.SIGNET_NO_DOCKER === '1') return false;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await Promise.race([getContainerRuntimeClient(), new Promise((_, r) => setTimeout(() => r(new Error('timeout')), 5000))]);
    return true;
  } catch {
    return false;
  }
}

type Started = { infra: InfraUrls & { source: string }; stop: () => Promise<void> };

/**
 * Every tier that runs against real infrastructure (integration, e2e, browser) names this file, and
 * vitest calls each project's globalSetup in the one main process: the first call finds or starts
 * the infrastructure, the others reuse it, and the last teardown stops it.
 */
const shared = globalThis as typeof globalThis & {
  signetInfra?: { started: Promise<Started>; users: number };
  signetWebBuilt?: boolean;
};

/** The pages as the gateway serves them, built from this tree (once per run; vite takes seconds). */
function buildWebPages(): void {
  if (shared.signetWebBuilt) return;
  execFileSync('pnpm', ['--filter', '@signet/web', 'build'], { cwd: join(import.meta.dirname, '../..'), stdio: 'ignore' });
  shared.signetWebBuilt = true;
}

async function findInfra(): Promise<Started> {
  const urls = infraFromEnv();
  if (urls) return { infra: { ...urls, source: 'environment' }, stop: async () => undefined };
  if (await dockerAnswers()) {
    const c = await startContainers();
    return { infra: { ...c.urls, source: 'testcontainers' }, stop: () => c.stop() };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-test-infra-'));
  const infra = await startLocalInfra({ dataDir });
  return {
    infra: { ...infra.urls, source: 'local-binaries' },
    async stop() {
      await infra.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject) {
  buildWebPages();
  shared.signetInfra ??= { started: findInfra(), users: 0 };
  const mine = shared.signetInfra;
  mine.users++;
  const started = await mine.started;
  project.provide('infra', started.infra);
  return async () => {
    if (--mine.users > 0) return;
    shared.signetInfra = undefined;
    await started.stop();
  };
}
