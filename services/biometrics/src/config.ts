import { z } from 'zod';
import { baseSchema, env, s3Schema } from '@signet/kit';
import { TF_BACKEND_CHOICES } from './analysis/backend.js';
import { DEFAULT_SPEECH_PYTHON } from './analysis/words.js';

export const biometricsConfigSchema = baseSchema.merge(s3Schema).extend({
  GRPC_PORT: env.port,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().default('signet_biometrics'),
  NATS_URL: env.natsUrl,
  /** Buckets the media are read from by key (owned by ceremony and transaction). */
  BUCKET_CAPTURES: z.string().default('signet-captures'),
  BUCKET_REFERENCES: z.string().default('signet-references'),
  ANALYSIS_DEADLINE_MS: z.coerce.number().int().positive().default(60_000),
  /** Worker threads for face detection: auto = one per core the process may use with wasm/cpu and
   *  tfjs-node (measured fastest, docs/decisions.md), none with tfjs-node-gpu; 0 = detect in the
   *  main thread. */
  ANALYSIS_WORKERS: z.union([z.literal('auto'), z.coerce.number().int().min(0).max(16)]).default('auto'),
  /** tfjs backend: auto = node-gpu (tfjs-node-gpu loads and a GPU is visible), else node (tfjs-node loads), else wasm; or one of node-gpu|node|wasm|cpu, which must load. */
  TF_BACKEND: z.enum(TF_BACKEND_CHOICES).default('auto'),
  /** Python interpreter of the speech worker (speech/recognise.py), with pocketsphinx: the venv
   *  scripts/speech-venv.sh builds; `~/` is the home directory. The image sets its own. */
  SPEECH_PYTHON: z.string().min(1).default(DEFAULT_SPEECH_PYTHON),
  /** Longest time one words check may take before the worker is restarted. */
  SPEECH_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Whether a reading window without voice fails the verdict (true) or is only recorded (false). */
  VOICE_REQUIRED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
});
export type BiometricsConfig = z.infer<typeof biometricsConfigSchema>;

/**
 * ffmpeg for decoding (FFMPEG_PATH, else Debian's). Read here, when the module loads, and not
 * through the schema: the analysis also runs outside the service (tests, evaluation, benchmark).
 */
export const FFMPEG_PATH = process.env.FFMPEG_PATH || '/usr/bin/ffmpeg';

/**
 * The environment libtensorflow reads its thread settings from, once, when it loads: planBackend
 * writes TF_NUM_* into it before the binding loads (docs/decisions.md "Biometrics on real TensorFlow").
 */
export function tensorflowEnvironment(): Record<string, string | undefined> {
  return process.env;
}
