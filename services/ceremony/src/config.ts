import { z } from 'zod';
import { baseSchema, env, s3Schema } from '@signet/kit';

export const ceremonyConfigSchema = baseSchema.merge(s3Schema).extend({
  GRPC_PORT: env.port,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().default('signet_ceremony'),
  NATS_URL: env.natsUrl,
  REDIS_URL: env.redisUrl,
  BUCKET_CAPTURES: z.string().default('signet-captures'),
  TRANSACTION_ADDR: env.grpcAddress,
  WEBAUTHN_RP_ID: z.string().min(1).default('localhost'),
  WEBAUTHN_RP_NAME: z.string().min(1).default('Signet'),
  WEBAUTHN_ORIGIN: env.httpUrl,
});
export type CeremonyConfig = z.infer<typeof ceremonyConfigSchema>;
