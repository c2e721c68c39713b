import { z } from 'zod';

/**
 * Parses the environment once against a zod schema. On any bad or missing value the process
 * stops with one line naming every offending variable (never its value: it may be a secret).
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`);
  process.stderr.write(`config error: ${problems.join('; ')}\n`);
  process.exit(78); // EX_CONFIG
}

/** Like loadConfig, but throws instead of exiting (for tests and composition). */
export function parseConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`);
  throw new Error(`config error: ${problems.join('; ')}`);
}

const port = z.coerce.number().int().min(1).max(65535);
const url = (protocols: string[]) =>
  z
    .string()
    .min(1, 'required')
    .refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol.replace(':', ''));
        } catch {
          return false;
        }
      },
      `must be a URL (${protocols.join(', ')})`,
    );

/** Building blocks every service's schema is made of. */
export const env = {
  port,
  url,
  secret: (minLength = 32) => z.string({ error: 'required' }).min(minLength, `must be at least ${minLength} characters`),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  mongoUrl: url(['mongodb', 'mongodb+srv']),
  natsUrl: url(['nats', 'tls']),
  redisUrl: url(['redis', 'rediss']),
  smtpUrl: url(['smtp', 'smtps']),
  httpUrl: url(['http', 'https']),
  /**
   * A gRPC target: `host:port` (one address, as a ClusterIP Service gives), `dns:///host:port` (every
   * address the name resolves to, as a headless Service gives: calls spread round-robin) or
   * `ipv4:a:port,b:port` (a fixed list, as the local stack's replicas).
   */
  grpcAddress: z
    .string()
    .regex(
      /^(?:[\w.-]+:\d+|dns:(?:\/\/\/)?[\w.-]+:\d+|ipv4:\d{1,3}(?:\.\d{1,3}){3}:\d+(?:,\d{1,3}(?:\.\d{1,3}){3}:\d+)*)$/,
      'must be host:port, dns:///host:port or ipv4:a.b.c.d:port[,…]',
    ),
  optionalUrl: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(url(['http', 'https']).optional()),
  duration: z.coerce.number().int().positive(),
};

/** Variables every service shares. */
export const baseSchema = z.object({
  LOG_LEVEL: env.logLevel,
  OPS_PORT: port,
  OTEL_EXPORTER_OTLP_ENDPOINT: env.optionalUrl,
  /** SIGTERM to closing the listeners, serving with readiness at 503 (0 when a preStop hook waits instead). */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /** SIGTERM to a forced exit: under terminationGracePeriodSeconds (less any preStop wait). */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).default(25_000),
  /** gRPC servers: connection age after which clients reconnect (load spreading), 0 = never (process-settings.ts). */
  GRPC_MAX_CONNECTION_AGE_MS: z.coerce.number().int().min(0).default(0),
  GRPC_MAX_CONNECTION_AGE_GRACE_MS: z.coerce.number().int().min(0).default(60_000),
  /** The JetStream streams the services create (SIGNET, SIGNET_DLQ). */
  EVENTS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  EVENTS_STREAM_MAX_AGE_DAYS: z.coerce.number().int().min(1).default(30),
  EVENTS_STREAM_MAX_BYTES: z.coerce.number().int().min(-1).default(-1),
});

/** The orphan-object sweep of a service that uploads to MinIO before it writes the record. */
export const orphanSweepSchema = z.object({
  /** How often the sweep removes stored objects no record points to (left by a crash); 0 turns the timer off. */
  ORPHAN_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 60 * 1000),
  /** Only objects older than this are swept, so uploads in flight are never touched. */
  ORPHAN_MIN_AGE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(60 * 60 * 1000),
});

/**
 * Transaction expiry and reminders (issue 18), in seconds so tests can make them short: the default and
 * longest time from creation to expiry, and the default reminder schedule (first after, then every, at
 * most; 0 reminders = none). The transaction service applies them; identity bounds what an account may set
 * by them. An account's own settings take their place.
 */
export const lifecycleSchema = z.object({
  EXPIRY_DEFAULT_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(30 * 86_400),
  EXPIRY_MAX_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(180 * 86_400),
  REMINDER_FIRST_AFTER_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(3 * 86_400),
  REMINDER_EVERY_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(3 * 86_400),
  REMINDER_MAX: z.coerce.number().int().min(0).max(20).default(3),
});

export const s3Schema = z.object({
  S3_ENDPOINT: env.httpUrl,
  S3_ACCESS_KEY: z.string({ error: 'required' }).min(3, 'required'),
  S3_SECRET_KEY: env.secret(8),
  S3_REGION: z.string().default('us-east-1'),
});
