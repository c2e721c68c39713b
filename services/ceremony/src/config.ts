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
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  FFPROBE_PATH: z.string().min(1).default('ffprobe'),
  /** Deadline for each ffmpeg/ffprobe run on an uploaded video. */
  MEDIA_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  RPC_DEADLINE_MS: z.coerce.number().int().positive().default(5_000),
  /** How often the sweep removes capture objects no capture record points to (left by a crash); 0 turns the timer off. */
  ORPHAN_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 60 * 1000),
  /** Only objects older than this are swept, so uploads in flight are never touched (keep it far above the 2-minute challenge). */
  ORPHAN_MIN_AGE_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(60 * 60 * 1000),
});
export type CeremonyConfig = z.infer<typeof ceremonyConfigSchema>;
