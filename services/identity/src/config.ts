import { z } from 'zod';
import { baseSchema, env, lifecycleSchema } from '@signet/kit';

// lifecycleSchema: the transaction lifecycle defaults, as the transaction service reads them (they bound what an account may set).
export const identityConfigSchema = baseSchema.merge(lifecycleSchema).extend({
  GRPC_PORT: env.port,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().default('signet_identity'),
  NATS_URL: env.natsUrl,
  REDIS_URL: env.redisUrl,
  SMTP_URL: env.smtpUrl,
  MAIL_FROM: z.string().default('Signet <no-reply@signet.invalid>'),
  /**
   * Not read by identity. Kept only because the chart sets it (`public: true` in its service
   * catalog) and the chart test refuses a variable the schema does not declare: drop both together.
   */
  PUBLIC_BASE_URL: env.httpUrl,
  /** HS256 key for session JWTs. */
  JWT_SECRET: env.secret(32),
  /** AES-256-GCM key for TOTP secrets at rest: 64 hex characters. */
  TOTP_ENCRYPTION_KEY: z.string({ error: 'required' }).regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)'),
  SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  /** The biometric retention of accounts that have not set one, and the longest one may set (as the transaction service reads them). */
  BIOMETRIC_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
  BIOMETRIC_RETENTION_MAX_DAYS: z.coerce.number().int().min(0).max(3650).default(365),
  /** Prefix of every Redis key (two-factor challenges); lets deployments and test runs share one Redis. */
  REDIS_KEY_PREFIX: z.string().default('signet:'),
  /** Senders' passkeys: the WebAuthn relying party id (a host name); default the host of PUBLIC_BASE_URL, whose origin the dashboard is served from. */
  PASSKEY_RP_ID: z.string().min(1).optional(),
  PASSKEY_RP_NAME: z.string().min(1).default('Signet'),
  /** How long the account audit log keeps an entry, in days (docs/privacy.md). */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(400),
});
export type IdentityConfig = z.infer<typeof identityConfigSchema>;
