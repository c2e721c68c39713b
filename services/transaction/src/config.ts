import { z } from 'zod';
import { baseSchema, env, orphanSweepSchema, s3Schema } from '@signet/kit';

export const transactionConfigSchema = baseSchema
  .merge(s3Schema)
  .merge(orphanSweepSchema)
  .extend({
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
    MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
    /** Days biometric data is kept after a transaction ends, unless the account chose otherwise (docs/privacy.md). */
    BIOMETRIC_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(30),
    /** The longest retention an account may choose; the default is clamped to it too. */
    BIOMETRIC_RETENTION_MAX_DAYS: z.coerce.number().int().min(0).max(3650).default(365),
    /** Tests only: the length of one retention "day" in seconds, to see the deletion happen. Refused in production. */
    BIOMETRIC_RETENTION_DAY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(86_400),
    /** How often the biometric erasure job looks for transactions whose retention has ended. */
    ERASURE_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
    /** How long a replica's claim on one transaction's erasure lasts before another may take it over. */
    ERASURE_LEASE_MS: z.coerce.number().int().min(100).default(120_000),
    NODE_ENV: z.string().optional(),
  })
  .refine((c) => !(c.BIOMETRIC_RETENTION_DAY_SECONDS !== 86_400 && c.NODE_ENV === 'production'), {
    message: 'must not be set in production (it shortens the retention the consent states)',
    path: ['BIOMETRIC_RETENTION_DAY_SECONDS'],
  });
export type TransactionConfig = z.infer<typeof transactionConfigSchema>;
