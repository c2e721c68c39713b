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
    /**
     * Longest capture video accepted, in seconds of its decoded stream (never its header). The page
     * records about 16 s; the biometrics service decodes at most 30 s (DECODE_LIMITS) whatever this says.
     */
    MEDIA_MAX_VIDEO_SECONDS: z.coerce.number().positive().max(120).default(30),
    RPC_DEADLINE_MS: z.coerce.number().int().positive().default(5_000),
    /**
     * Tests only: fixes the challenge's random source (words, actions, timeline, colours) so a test
     * can pre-render a camera feed. Refused when NODE_ENV is production.
     */
    CHALLENGE_TEST_SEED: z.string().min(16).optional(),
    /** How often the erasure job looks for sessions whose capture media are to be erased (also woken by each request). */
    ERASURE_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
    /** How long a replica's claim on one session's erasure lasts before another may take it over. */
    ERASURE_LEASE_MS: z.coerce.number().int().min(100).default(120_000),
    /** How often the reconciliation lists the captures bucket for objects past their erasure (0: never). */
    ERASURE_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(0).default(86_400_000),
    NODE_ENV: z.string().optional(),
  })
  .refine((c) => !(c.CHALLENGE_TEST_SEED && c.NODE_ENV === 'production'), {
    message: 'must not be set in production (it makes challenges predictable)',
    path: ['CHALLENGE_TEST_SEED'],
  });
export type CeremonyConfig = z.infer<typeof ceremonyConfigSchema>;
