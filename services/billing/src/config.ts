import { z } from 'zod';
import { baseSchema, env } from '@signet/kit';
import { parseCatalog } from './domain/catalog.js';

export const billingConfigSchema = baseSchema.extend({
  GRPC_PORT: env.port,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().default('signet_billing'),
  NATS_URL: env.natsUrl,
  REDIS_URL: env.redisUrl,
  /** Standard Webhooks signing secret of the payment provider: whsec_<base64>. */
  WEBHOOK_SECRET: z.string({ error: 'required' }).regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, 'must be whsec_ followed by base64'),
  /** JSON: product id → {"plan":"pro"|"firm"} or {"credits":N}. */
  PRODUCT_CATALOG: z
    .string()
    .default('{}')
    .transform((v, ctx) => {
      try {
        return parseCatalog(v);
      } catch (err) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a JSON object of product id → {"plan":"pro"|"firm"} or {"credits":N} (${(err as Error).message.split('\n')[0]})`,
        });
        return z.NEVER;
      }
    }),
  /** Days an account stays past due before it falls to Free; fractions allowed (tests use seconds). */
  GRACE_PERIOD_DAYS: z.coerce.number().min(0).max(90).default(7),
  /** How often the downgrade sweep runs (one replica at a time, under a Redis lease). */
  SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
});
export type BillingConfig = z.infer<typeof billingConfigSchema>;
