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
  });
export type TransactionConfig = z.infer<typeof transactionConfigSchema>;
