import { z } from 'zod';
import { baseSchema, env, s3Schema } from '@signet/kit';

export const biometricsConfigSchema = baseSchema.merge(s3Schema).extend({
  GRPC_PORT: env.port,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().default('signet_biometrics'),
  NATS_URL: env.natsUrl,
  ANALYSIS_DEADLINE_MS: z.coerce.number().int().positive().default(60_000),
});
export type BiometricsConfig = z.infer<typeof biometricsConfigSchema>;
