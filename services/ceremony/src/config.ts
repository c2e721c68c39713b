import { z } from 'zod';
import { baseSchema, env, orphanSweepSchema, s3Schema } from '@signet/kit';

export const ceremonyConfigSchema = baseSchema
  .merge(s3Schema)
  .merge(orphanSweepSchema)
  .extend({
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
    FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
    FFPROBE_PATH: z.string().min(1).default('ffprobe'),
    /** Deadline for each ffmpeg/ffprobe run on an uploaded video. */
    MEDIA_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
    RPC_DEADLINE_MS: z.coerce.number().int().positive().default(5_000),
  });
export type CeremonyConfig = z.infer<typeof ceremonyConfigSchema>;
