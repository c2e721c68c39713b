import { z } from 'zod';
import { baseSchema, env } from '@signet/kit';

const gatewayFields = baseSchema.extend({
  HTTP_PORT: env.port,
  PUBLIC_BASE_URL: env.httpUrl,
  REDIS_URL: env.redisUrl,
  IDENTITY_ADDR: env.grpcAddress,
  TRANSACTION_ADDR: env.grpcAddress,
  CEREMONY_ADDR: env.grpcAddress,
  LEDGER_ADDR: env.grpcAddress,
  BILLING_ADDR: env.grpcAddress,
  /** Comma-separated proxy addresses whose X-Forwarded-For is believed (the ingress). */
  TRUSTED_PROXIES: z.string().default('loopback'),
  /**
   * Strict-Transport-Security max-age (seconds) on answers to requests that came over HTTPS through a
   * trusted proxy (X-Forwarded-Proto: https from TRUSTED_PROXIES); 0: never sent. Default one year.
   */
  HSTS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).max(63_072_000).default(31_536_000),
  /** Add includeSubDomains to Strict-Transport-Security (only when every subdomain of the host serves HTTPS). */
  HSTS_INCLUDE_SUBDOMAINS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * Services whose gRPC health the gateway's readiness also requires (comma-separated names). Default
   * none: an upstream that is down fails only the routes that call it (circuit breaker), not the pod.
   */
  READINESS_UPSTREAMS: z.string().default(''),
  /** Prefix of every Redis key (rate limits, auth cache, CSRF); replicas of one deployment share it. */
  REDIS_KEY_PREFIX: z.string().default('signet:'),
  /** Longest time a resolved credential is cached; revocation invalidates it at once regardless. */
  AUTH_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** Path segment of the payment provider's webhook: POST /api/webhooks/<WEBHOOK_PROVIDER>. */
  WEBHOOK_PROVIDER: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/, 'must be lower-case letters, digits or -')
    .default('dodo'),
  /** Dashboard checkout links (payment provider pages); the billing page hides a link that is unset. */
  CHECKOUT_URL_PRO: env.httpUrl.optional(),
  CHECKOUT_URL_FIRM: env.httpUrl.optional(),
  CHECKOUT_URL_CREDITS: env.httpUrl.optional(),
  /**
   * Secret (at least 32 characters) the transaction service signs completion mails' download links
   * with; the gateway checks them with it (GET /api/downloads/{token}). Unset: download links are off.
   */
  DOWNLOAD_LINK_SECRET: env.secret(32).optional(),
  /**
   * The roots a dropped signed PDF's seal and timestamp must chain to (POST /api/verify/signed-pdf):
   * PEM text or the path of a PEM file (the seal CA and the TSA's CA). Unset: that route answers 503.
   */
  VERIFY_TRUST_ROOTS: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v : undefined)),
  /** Largest signed PDF POST /api/verify/signed-pdf reads, in bytes (larger: 413 at once). */
  VERIFY_SIGNED_PDF_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024 * 1024),
  /** Deadline for calls to the services, in milliseconds. */
  RPC_DEADLINE_MS: z.coerce.number().int().positive().default(5000),
  /**
   * Tests only: multiplies the auth routes' rate limits (login, register, codes…), so the API fuzzing
   * test is not starved by 429s there; 1 keeps the spec's limits. Refused in production.
   */
  AUTH_RATE_LIMIT_SCALE: z.coerce.number().int().min(1).max(10_000).default(1),
  NODE_ENV: z.string().optional(),
});

export const gatewayConfigSchema = gatewayFields.refine((c) => !(c.AUTH_RATE_LIMIT_SCALE !== 1 && c.NODE_ENV === 'production'), {
  message: 'must not be set in production (the auth routes keep the spec limits)',
  path: ['AUTH_RATE_LIMIT_SCALE'],
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
