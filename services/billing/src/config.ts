import { z } from 'zod';
import { baseSchema, env } from '@signet/kit';

export const billingConfigSchema = baseSchema.extend({
  GRPC_PORT: env.port,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().default('signet_billing'),
  NATS_URL: env.natsUrl,
  REDIS_URL: env.redisUrl,
  /** Standard Webhooks signing secret of the payment provider: whsec_<base64>. */
  WEBHOOK_SECRET: z.string({ error: 'required' }).regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, 'must be whsec_ followed by base64'),
  /** JSON: product id → {"plan":"pro"|"firm"} or {"credits":N}. */
  PRODUCT_CATALOG: z.string().default('{}'),
  GRACE_PERIOD_DAYS: z.coerce.number().int().min(0).max(90).default(7),
  IDENTITY_ADDR: env.grpcAddress,
});
export type BillingConfig = z.infer<typeof billingConfigSchema>;
