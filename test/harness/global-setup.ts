/**
 * Vitest globalSetup for integration tests: finds real infrastructure and provides its URLs.
 * 1. URLs from the environment (MONGO_URL, NATS_URL, S3_ENDPOINT/S3_ACCESS_KEY/S3_SECRET_KEY,
 *    REDIS_URL, SMTP_URL, MAILPIT_URL) when all are set;
 * 2. else testcontainers (real MongoDB, MinIO, NATS, Redis, Mailpit images) when a Docker engine answers;
 * 3. else the local binaries of scripts/install.sh on free ports under a temporary folder.
 * Nothing is mocked at the infrastructure boundary.
 */
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

export default async function setup(project: TestProject) {
  const urls = infraFromEnv();
  if (urls) {
    project.provide('infra', { ...urls, source: 'environment' });
    return;
  }
  if (await dockerAnswers()) {
    const c = await startContainers();
    project.provide('infra', { ...c.urls, source: 'testcontainers' });
    return () => c.stop();
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-test-infra-'));
  const infra = await startLocalInfra({ dataDir });
  project.provide('infra', { ...infra.urls, source: 'local-binaries' });
  return async () => {
    await infra.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
