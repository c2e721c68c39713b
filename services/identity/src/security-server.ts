import type { Connection } from 'mongoose';
import type { Redis } from 'ioredis';
import { startConsumer, type Bus, type Metrics } from '@signet/kit';
import { AUDIT_CONSUMER, auditConsumer } from './events/audit.consumer.js';
import type { IdentityConfig } from './config.js';
import { securityHandlers, type SecurityHandlers } from './grpc/security.handler.js';
import { startAuditRetention } from './jobs/audit-retention.job.js';
import { securityMetrics } from './security-metrics.js';
import { createAuditRepository } from './store/audit.repository.js';
import { createPasskeyRepository } from './store/passkey.repository.js';
import { createRecoveryCodeRepository } from './store/recovery-code.repository.js';
import { createWebauthnChallengeRepository } from './store/webauthn-challenge.repository.js';
import type { IdentityDeps } from './usecases/deps.js';

const RETENTION_PERIOD_MS = 3_600_000;

/** The SecurityService's stores, handlers, the audit log's consumer and retention job, on identity's connections. */
export async function securityServer(
  cfg: IdentityConfig,
  conn: Connection,
  redis: Redis,
  base: IdentityDeps,
  metrics: Metrics,
  bus: Bus,
): Promise<{ handlers: SecurityHandlers; stop(): Promise<void> }> {
  const passkeys = createPasskeyRepository(conn);
  const recoveryCodes = createRecoveryCodeRepository(conn);
  const audit = createAuditRepository(conn);
  await Promise.all([passkeys.init(), recoveryCodes.init(), audit.init()]);
  const origin = new URL(cfg.PUBLIC_BASE_URL);
  const m = securityMetrics(metrics);
  const handlers = securityHandlers({
    ...base,
    passkeys,
    recoveryCodes,
    audit,
    webauthnChallenges: createWebauthnChallengeRepository(redis, cfg.REDIS_KEY_PREFIX),
    webauthn: { rpId: cfg.PASSKEY_RP_ID ?? origin.hostname, rpName: cfg.PASSKEY_RP_NAME, origin: origin.origin },
    securityMetrics: m,
  });
  const retention = startAuditRetention({
    audit,
    retentionDays: cfg.AUDIT_RETENTION_DAYS,
    periodMs: RETENTION_PERIOD_MS,
    now: base.now,
    logger: base.logger,
    onDeleted: (n) => m.auditRetained.inc({}, n),
  });
  // identity-audit: the entries identity's own writes carry as identity.audit.recorded outbox events,
  // and the transaction service's deletions and biometric erasures (their events name the member who asked).
  const consumer = await startConsumer(bus, AUDIT_CONSUMER, auditConsumer({ audit, users: base.users, securityMetrics: m }), {
    metrics,
    logger: base.logger as Parameters<typeof startConsumer>[3]['logger'],
  });
  return {
    handlers,
    async stop() {
      retention.stop();
      await consumer.stop();
    },
  };
}
