import { z } from 'zod';
import { baseSchema, env, lifecycleSchema, orphanSweepSchema, s3Schema } from '@signet/kit';
import { parseNetworks } from './webhooks/domain/address-policy.js';

export const transactionConfigSchema = baseSchema
  .merge(s3Schema)
  .merge(orphanSweepSchema)
  // Expiry and reminders (domain/lifecycle.ts); an account's own (identity.settings.changed) take their place.
  .merge(lifecycleSchema)
  .extend({
    /** The shortest reminder interval a creation may ask for (an hour: each reminder is a mail to a person). */
    REMINDER_MIN_EVERY_SECONDS: z.coerce.number().int().min(1).default(3_600),
    GRPC_PORT: env.port,
    MONGO_URL: env.mongoUrl,
    MONGO_DB: z.string().default('signet_transaction'),
    NATS_URL: env.natsUrl,
    /** Not used: resend limits live on the record. Optional so deployments that pass it still start. */
    REDIS_URL: env.redisUrl.optional(),
    SMTP_URL: env.smtpUrl,
    MAIL_FROM: z.string().default('Signet <no-reply@signet.invalid>'),
    PUBLIC_BASE_URL: env.httpUrl,
    /** Certificate references are <REFERENCE_PREFIX>-TX-<8 digits>. */
    REFERENCE_PREFIX: z
      .string()
      .regex(/^[A-Z0-9]{2,8}$/, 'must be 2-8 upper-case letters or digits')
      .default('SIG'),
    BUCKET_DOCUMENTS: z.string().default('signet-documents'),
    BUCKET_REFERENCES: z.string().default('signet-references'),
    BILLING_ADDR: env.grpcAddress,
    /** Biometrics counts the faces of each reference photo at creation (a reference must show exactly one). */
    BIOMETRICS_ADDR: env.grpcAddress,
    /** Tests only: `off` skips that face count (stacks without the biometrics models). Refused in production. */
    REFERENCE_FACE_CHECK: z.enum(['on', 'off']).default('on'),
    MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
    /** Days biometric data is kept after a transaction ends, unless the account chose otherwise (docs/privacy.md). */
    BIOMETRIC_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
    /** The longest retention an account may choose; the default is clamped to it too. */
    BIOMETRIC_RETENTION_MAX_DAYS: z.coerce.number().int().min(0).max(3650).default(365),
    /** Tests only: the length of one retention "day" in seconds, to see the deletion happen. Refused in production. */
    BIOMETRIC_RETENTION_DAY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(86_400),
    /** How often the biometric erasure job looks for transactions whose retention has ended. */
    ERASURE_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
    /**
     * The notice between a signer's erasure request (the completion mail's link) and the erasure; the
     * sender is mailed at once (docs/privacy.md). Default 7 days.
     */
    ERASURE_NOTICE_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(90 * 86_400)
      .default(7 * 86_400),
    /** How long a replica's claim on one transaction's erasure lasts before another may take it over. */
    ERASURE_LEASE_MS: z.coerce.number().int().min(100).default(120_000),
    /**
     * Outgoing webhooks: networks (CIDRs, comma-separated) customer endpoints may reach although they
     * are loopback, private or link-local. Default none; the local stack and tests allow loopback.
     */
    WEBHOOK_ALLOW_NETWORKS: z
      .string()
      .default('')
      .refine((v) => {
        try {
          parseNetworks(v);
          return true;
        } catch {
          return false;
        }
      }, 'must be comma-separated CIDRs, e.g. 127.0.0.0/8,::1/128'),
    /** Wait after the first failed attempt; doubled each time up to the cap (about 3 days in all by default). */
    WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).default(60_000),
    WEBHOOK_RETRY_CAP_MS: z.coerce
      .number()
      .int()
      .min(10)
      .default(12 * 3600_000),
    WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(16),
    /** How long a replica's claim on one delivery lasts (longer than the 10 s attempt timeout). */
    WEBHOOK_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
    WEBHOOK_POLL_MS: z.coerce.number().int().min(50).default(1000),
    /**
     * Attempts in flight at once per replica. Fair delivery (issue 31): at most
     * WEBHOOK_ENDPOINT_CONCURRENCY of them to one endpoint and WEBHOOK_OWNER_CONCURRENCY to one owner's
     * endpoints, so one owner's slow or dead receivers hold at most that many and never the rest.
     */
    WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(32),
    WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
    WEBHOOK_OWNER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(8),
    /** A 2xx within this long counts as delivered; anything slower is a timeout (keep it below WEBHOOK_LEASE_MS). */
    WEBHOOK_ATTEMPT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    /** An endpoint whose every attempt has failed for this long is disabled and its owner mailed (default 5 days). */
    WEBHOOK_DISABLE_AFTER_MS: z.coerce
      .number()
      .int()
      .min(1000)
      .default(5 * 86_400_000),
    /** Webhook endpoints an owner may have per mode (live, test), exact under concurrent creates. */
    WEBHOOK_MAX_ENDPOINTS: z.coerce.number().int().min(1).max(100).default(20),
    /** Days an ended delivery (its payload names signers) stays in the endpoint's log. */
    /** AES-256-GCM key sealing the outgoing webhook endpoints' signing secrets at rest: 64 hex characters, no default. */
    WEBHOOK_ENDPOINT_KEY: z.string({ error: 'required' }).regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)'),
    WEBHOOK_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    /** How often the lifecycle timer job looks for due expiries and reminders, and how long its claim on one record lasts. */
    TIMER_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
    TIMER_LEASE_MS: z.coerce.number().int().min(100).default(60_000),
    /**
     * Bulk send (issue 33): rows created per second at most by each replica (each row mails its first
     * signers, so the mail server is not flooded), how long a replica's claim on a job lasts without
     * renewal (a killed one's job is resumed after it), and how often unclaimed jobs are looked for.
     */
    BULK_ROWS_PER_SECOND: z.coerce.number().min(0.1).max(1000).default(10),
    BULK_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(4),
    BULK_LEASE_MS: z.coerce.number().int().min(100).default(30_000),
    BULK_INTERVAL_MS: z.coerce.number().int().min(100).default(5_000),
    /**
     * Secret (at least 32 characters) the completion mails' download links are signed with; the
     * gateway checks them with the same value. Unset: no completion mails (issue 17).
     */
    DOWNLOAD_LINK_SECRET: env.secret(32).optional(),
    /** How long a completion mail's download link works. */
    DOWNLOAD_LINK_TTL_SECONDS: z.coerce.number().int().min(60).max(31_536_000).default(1_209_600),
    NODE_ENV: z.string().optional(),
  })
  .refine((c) => !(c.BIOMETRIC_RETENTION_DAY_SECONDS !== 86_400 && c.NODE_ENV === 'production'), {
    message: 'must not be set in production (it shortens the retention the consent states)',
    path: ['BIOMETRIC_RETENTION_DAY_SECONDS'],
  })
  .refine((c) => !(c.REFERENCE_FACE_CHECK === 'off' && c.NODE_ENV === 'production'), {
    message: 'must not be off in production (a group photo would be accepted as a reference)',
    path: ['REFERENCE_FACE_CHECK'],
  })
  .refine((c) => c.EXPIRY_DEFAULT_SECONDS <= c.EXPIRY_MAX_SECONDS, {
    message: 'must not be longer than EXPIRY_MAX_SECONDS (every creation without expires_at would be refused)',
    path: ['EXPIRY_DEFAULT_SECONDS'],
  });
export type TransactionConfig = z.infer<typeof transactionConfigSchema>;
