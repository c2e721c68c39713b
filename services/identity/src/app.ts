import {
  addService,
  connectBus,
  connectMongo,
  createLogger,
  createMailer,
  createOutboxRelay,
  Metrics,
  pingMongo,
  serveGrpc,
  startConsumer,
  type Logger,
} from '@signet/kit';
import { events, identityBrandingV1, identitySecurityV1, identityV1 } from '@signet/proto';
import { Redis } from 'ioredis';
import type { IdentityConfig } from './config.js';
import { argon2idPasswords, createSecretBox } from './domain/secrets.js';
import { createSessions } from './domain/session.js';
import { identityMetrics } from './metrics.js';
import { brandingServer } from './branding-server.js';
import { invitationMailConsumer } from './events/invitation-mail.consumer.js';
import { identityHandlers } from './server.js';
import { securityServer } from './security-server.js';
import { createApiKeyRepository } from './store/api-key.repository.js';
import { createInvitationRepository } from './store/invitation.repository.js';
import { createMfaChallengeRepository } from './store/mfa-challenge.repository.js';
import { createSignupRepository } from './store/signup.repository.js';
import { createUserRepository } from './store/user.repository.js';

/**
 * Starts identity: gRPC on GRPC_PORT, ops on OPS_PORT, the outbox relay for user, invitation and key
 * events, and its own consumers (the audit log's entries, the invitation mails).
 */
export async function startIdentity(cfg: IdentityConfig, opts: { logger?: Logger } = {}) {
  const logger = opts.logger ?? createLogger('identity', cfg.LOG_LEVEL);
  const metrics = new Metrics('identity');
  const conn = await connectMongo(cfg.MONGO_URL, cfg.MONGO_DB);
  const bus = await connectBus(cfg.NATS_URL, 'identity');
  const redis = new Redis(cfg.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  const users = createUserRepository(conn);
  const signups = createSignupRepository(conn);
  const apiKeys = createApiKeyRepository(conn);
  const invitations = createInvitationRepository(conn);
  await Promise.all([users.init(), signups.init(), apiKeys.init(), invitations.init()]);
  const mailer = createMailer(cfg.SMTP_URL, cfg.MAIL_FROM);
  const relay = createOutboxRelay(bus, [users.model, invitations.model, apiKeys.model], { metrics, logger });

  const checks = [
    { name: 'mongo', check: () => pingMongo(conn) },
    { name: 'nats', check: async () => bus.nc.flush() },
    { name: 'redis', check: () => redis.ping() },
  ];
  const stores = { users, signups, apiKeys, invitations };
  const deps = identityDeps(cfg, stores, { redis, mailer, metrics, logger, onUserCreated: relay.kick });
  const handlers = identityHandlers(deps);
  const security = await securityServer(cfg, conn, redis, deps, metrics, bus);
  const branding = await brandingServer(conn, bus, metrics, logger, users);
  const invitationMail = await startConsumer(
    bus,
    { durable: 'identity-invitation-mail', events: [events.memberInvited] },
    invitationMailConsumer(deps),
    { metrics, logger },
  );
  const served = await serveGrpc({
    name: 'identity',
    logger,
    metrics,
    grpcPort: cfg.GRPC_PORT,
    opsPort: cfg.OPS_PORT,
    checks,
    register: (server) => {
      addService(server, identityV1.IdentityServiceService, handlers, { metrics, logger });
      addService(server, identitySecurityV1.SecurityServiceService, security.handlers, { metrics, logger });
      addService(server, identityBrandingV1.BrandingServiceService, branding.handlers, { metrics, logger });
    },
  });
  return {
    grpcPort: served.grpcPort,
    opsPort: served.opsPort,
    metrics,
    async stop() {
      await served.stop();
      await invitationMail.stop();
      await security.stop();
      branding.stop();
      relay.stop();
      mailer.close();
      await bus.nc.drain();
      redis.disconnect();
      await conn.close();
    },
  };
}

type Stores = {
  users: ReturnType<typeof createUserRepository>;
  signups: ReturnType<typeof createSignupRepository>;
  apiKeys: ReturnType<typeof createApiKeyRepository>;
  invitations: ReturnType<typeof createInvitationRepository>;
};

/** What identity's use cases run on: its stores, the session and secret keys, and the policies from configuration. */
function identityDeps(
  cfg: IdentityConfig,
  stores: Stores,
  io: { redis: Redis; mailer: ReturnType<typeof createMailer>; metrics: Metrics; logger: Logger; onUserCreated: () => void },
) {
  return {
    ...stores,
    sessions: createSessions(cfg.JWT_SECRET),
    passwords: argon2idPasswords,
    box: createSecretBox(cfg.TOTP_ENCRYPTION_KEY),
    mfaChallenges: createMfaChallengeRepository(io.redis, cfg.REDIS_KEY_PREFIX),
    mailer: io.mailer,
    defaultSessionTtlHours: cfg.SESSION_TTL_HOURS,
    biometricRetention: {
      defaultDays: Math.min(cfg.BIOMETRIC_RETENTION_DAYS, cfg.BIOMETRIC_RETENTION_MAX_DAYS),
      maxDays: cfg.BIOMETRIC_RETENTION_MAX_DAYS,
    },
    lifecycle: {
      expirySeconds: cfg.EXPIRY_DEFAULT_SECONDS,
      expiryMaxSeconds: cfg.EXPIRY_MAX_SECONDS,
      reminderFirstSeconds: cfg.REMINDER_FIRST_AFTER_SECONDS,
      reminderEverySeconds: cfg.REMINDER_EVERY_SECONDS,
      reminderMax: cfg.REMINDER_MAX,
    },
    metrics: identityMetrics(io.metrics),
    logger: io.logger,
    onUserCreated: io.onUserCreated,
    now: Date.now,
  };
}
