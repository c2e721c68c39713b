/**
 * Prints the Markdown table of every configuration variable of every service, from the services'
 * own zod schemas (the single source of truth). README.md embeds it between the config-table
 * markers; `pnpm config-docs --write` refreshes it and a unit test fails when it is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { gatewayConfigSchema } from '../services/gateway/src/config.js';
import { identityConfigSchema } from '../services/identity/src/config.js';
import { transactionConfigSchema } from '../services/transaction/src/config.js';
import { ceremonyConfigSchema } from '../services/ceremony/src/config.js';
import { biometricsConfigSchema } from '../services/biometrics/src/config.js';
import { ledgerConfigSchema } from '../services/ledger/src/config.js';
import { billingConfigSchema } from '../services/billing/src/config.js';

const schemas: Record<string, z.ZodObject> = {
  gateway: gatewayConfigSchema,
  identity: identityConfigSchema,
  transaction: transactionConfigSchema,
  ceremony: ceremonyConfigSchema,
  biometrics: biometricsConfigSchema,
  ledger: ledgerConfigSchema,
  billing: billingConfigSchema,
} as unknown as Record<string, z.ZodObject>;

const descriptions: Record<string, string> = {
  LOG_LEVEL: 'pino log level',
  OPS_PORT: 'port of /metrics, /healthz, /readyz',
  GRPC_PORT: 'gRPC port',
  HTTP_PORT: 'public HTTP port',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'OTLP/HTTP endpoint for traces; export is off when unset',
  SHUTDOWN_DELAY_MS: 'after SIGTERM, time serving with readiness at 503 before the listeners close (0 when a preStop hook waits)',
  SHUTDOWN_TIMEOUT_MS: 'after SIGTERM, time to a forced exit; under the pod’s termination grace period',
  GRPC_MAX_CONNECTION_AGE_MS:
    'gRPC servers close each client connection after this long so clients reconnect to any replica (load spreading); 0: never',
  GRPC_MAX_CONNECTION_AGE_GRACE_MS: 'time calls in flight on an aged gRPC connection get to finish',
  EVENTS_STREAM_REPLICAS: 'replicas of the SIGNET and SIGNET_DLQ JetStream streams (3 on a three-node JetStream cluster)',
  EVENTS_STREAM_MAX_AGE_DAYS: 'days events stay in the SIGNET stream',
  EVENTS_STREAM_MAX_BYTES: 'size limit of the SIGNET stream in bytes, -1 none; when full new events wait in the outboxes',
  MONGO_URL: 'MongoDB (or FerretDB) connection URL',
  MONGO_DB: 'database owned by the service',
  NATS_URL: 'NATS server with JetStream',
  REDIS_URL: 'Redis URL',
  SMTP_URL: 'SMTP server for outgoing mail',
  MAIL_FROM: 'From address of outgoing mail',
  S3_ENDPOINT: 'S3 (MinIO) endpoint URL',
  S3_ACCESS_KEY: 'S3 access key',
  S3_SECRET_KEY: 'S3 secret key (secret)',
  S3_REGION: 'S3 region',
  PUBLIC_BASE_URL: 'public root URL of the gateway ({base_url})',
  JWT_SECRET: 'HS256 key of session JWTs (secret)',
  TOTP_ENCRYPTION_KEY: 'AES-256-GCM key for TOTP secrets at rest, 64 hex (secret)',
  SESSION_TTL_HOURS: 'default session validity',
  AUDIT_RETENTION_DAYS: 'days the account audit log keeps an entry; the retention job deletes older ones hourly',
  PASSKEY_RP_ID: "senders' passkeys: WebAuthn relying party id (default: the host of PUBLIC_BASE_URL)",
  PASSKEY_RP_NAME: "senders' passkeys: WebAuthn relying party name",
  WEBHOOK_SECRET: 'payment provider Standard Webhooks secret whsec_… (secret)',
  WEBHOOK_ENDPOINT_KEY: "AES-256-GCM key sealing the outgoing webhook endpoints' signing secrets at rest, 64 hex (secret)",
  PRODUCT_CATALOG: 'JSON product id → plan or credit pack',
  GRACE_PERIOD_DAYS: 'days past due before downgrade',
  SWEEP_INTERVAL_MS: 'period of the billing downgrade sweep (one replica at a time)',
  WEBHOOK_PROVIDER: 'payment provider path segment: POST /api/webhooks/<provider>',
  REFERENCE_PREFIX: 'certificate reference prefix',
  BUCKET_DOCUMENTS: 'bucket of PDFs',
  BUCKET_REFERENCES: 'bucket of reference photos',
  BUCKET_CAPTURES: 'bucket of signing videos and frames',
  MAX_ATTEMPTS: 'verification attempts per signer',
  ORPHAN_SWEEP_INTERVAL_MS: 'period of the sweep removing stored objects no record points to',
  ORPHAN_MIN_AGE_MS: 'the orphan sweep only removes objects older than this (uploads in flight are never touched)',
  TRUSTED_PROXIES: 'proxies whose X-Forwarded-For is trusted',
  HSTS_MAX_AGE_SECONDS:
    'Strict-Transport-Security max-age on answers to requests that came over HTTPS through a trusted proxy (X-Forwarded-Proto from TRUSTED_PROXIES); 0: never sent',
  HSTS_INCLUDE_SUBDOMAINS: 'add includeSubDomains to Strict-Transport-Security (only if every subdomain serves HTTPS)',
  REDIS_KEY_PREFIX: 'prefix of every Redis key (replicas of one deployment share it)',
  AUTH_CACHE_TTL_SECONDS: 'longest life of a cached credential (revocation is immediate)',
  CHECKOUT_URL_PRO: 'dashboard link to the Pro plan checkout (hidden when unset)',
  CHECKOUT_URL_FIRM: 'dashboard link to the Firm plan checkout (hidden when unset)',
  CHECKOUT_URL_CREDITS: 'dashboard link to buy signature credits (hidden when unset)',
  RPC_DEADLINE_MS: 'deadline of calls to services',
  MEDIA_MAX_VIDEO_SECONDS: 'longest capture video, in seconds of its decoded stream (never its header)',
  CHALLENGE_TEST_SEED:
    'tests only: makes challenges reproducible so a test can pre-render a camera feed; refused when NODE_ENV is production',
  NODE_ENV:
    'production in the images; the ceremony then refuses CHALLENGE_TEST_SEED, the transaction service a shortened BIOMETRIC_RETENTION_DAY_SECONDS or REFERENCE_FACE_CHECK=off',
  BIOMETRIC_RETENTION_DAYS:
    "days a transaction's biometric data (reference photo, capture videos and frames) is kept after it ends; stated in the consent (docs/privacy.md)",
  BIOMETRIC_RETENTION_MAX_DAYS: 'longest biometric retention; the default is clamped to it',
  BIOMETRIC_RETENTION_DAY_SECONDS: 'tests only: the length of one retention day in seconds; refused when NODE_ENV is production',
  ERASURE_INTERVAL_MS: 'period of the job erasing biometric data whose retention ended',
  ERASURE_LEASE_MS: "how long a replica's claim on one erasure holds (a killed replica's claim expires after it)",
  WEBHOOK_ALLOW_NETWORKS:
    'CIDRs (comma-separated) outgoing webhooks may reach although loopback, private or link-local (default none; the local stack allows loopback)',
  WEBHOOK_RETRY_BASE_MS: 'wait after the first failed webhook attempt, doubled after each (with ±20 % jitter)',
  WEBHOOK_RETRY_CAP_MS: 'longest wait between two webhook attempts',
  WEBHOOK_MAX_ATTEMPTS: 'webhook attempts before a delivery fails (defaults: about 3 days)',
  WEBHOOK_LEASE_MS: "how long a replica's claim on one webhook delivery holds (longer than the 10 s attempt timeout)",
  WEBHOOK_POLL_MS: 'period of the webhook delivery job (a new event starts it at once)',
  WEBHOOK_CONCURRENCY: 'webhook deliveries attempted at once per replica',
  WEBHOOK_ENDPOINT_CONCURRENCY: 'webhook attempts in flight at once to one endpoint',
  WEBHOOK_OWNER_CONCURRENCY:
    "webhook attempts in flight at once to one owner's endpoints (one owner's dead receivers hold no more)",
  WEBHOOK_ATTEMPT_TIMEOUT_MS: 'a webhook attempt answered 2xx within this long counts as delivered',
  WEBHOOK_DISABLE_AFTER_MS: 'a webhook endpoint failing every attempt for this long is disabled and its owner mailed',
  WEBHOOK_MAX_ENDPOINTS: 'webhook endpoints an owner may have per mode (live, test)',
  WEBHOOK_LOG_RETENTION_DAYS: 'days an ended webhook delivery (its payload names signers) stays in the delivery log',
  EXPIRY_DEFAULT_SECONDS: 'time from creation to expiry when the creation gives no expires_at (30 days)',
  EXPIRY_MAX_SECONDS: 'the latest expires_at a creation may ask for, from now (180 days)',
  REMINDER_FIRST_AFTER_SECONDS: 'default wait from creation to the first automatic reminder',
  REMINDER_EVERY_SECONDS: 'default wait between automatic reminders',
  REMINDER_MAX: 'default number of automatic reminders per transaction (0: none; at most 20)',
  REMINDER_MIN_EVERY_SECONDS: 'the shortest reminder_every_seconds a creation may ask for (one hour; shorter: 400)',
  TIMER_INTERVAL_MS: 'period of the job that expires transactions and sends due reminders',
  TIMER_LEASE_MS: "how long a replica's claim on one transaction's due timer holds (a killed replica's claim expires after it)",
  BULK_ROWS_PER_SECOND: 'bulk send: rows a replica creates per second at most (each mails its first signers)',
  BULK_CONCURRENCY: 'bulk send: rows a replica creates at once (within BULK_ROWS_PER_SECOND)',
  BULK_LEASE_MS: "bulk send: how long a replica's claim on a job holds without renewal (a killed replica's job resumes after it)",
  BULK_INTERVAL_MS: 'bulk send: period of the job that looks for running jobs nobody holds',
  ERASURE_RECONCILE_INTERVAL_MS: 'period of the reconciliation deleting capture objects past their erasure (0: never)',
  READINESS_UPSTREAMS: 'services the gateway readiness requires',
  WEBAUTHN_RP_ID: 'WebAuthn relying party id',
  WEBAUTHN_RP_NAME: 'WebAuthn relying party name',
  WEBAUTHN_ORIGIN: 'WebAuthn expected origin',
  ANALYSIS_DEADLINE_MS: 'deadline of one biometric analysis',
  ANALYSIS_WORKERS:
    'biometrics detector worker threads; auto = one per usable core with wasm and tfjs-node, 0 with tfjs-node-gpu',
  VOICE_REQUIRED: 'biometrics: a silent word-reading window fails the verdict (false: only recorded)',
  SPEECH_PYTHON:
    'biometrics: Python with pocketsphinx and Whisper base (ctranslate2) for the words check (scripts/speech-venv.sh builds the default)',
  SPEECH_TIMEOUT_MS: 'biometrics: longest words check before the speech worker is restarted',
  TF_BACKEND:
    'tfjs backend: auto (node-gpu if it loads and a GPU is visible, else node if it loads, else wasm), node-gpu, node, wasm, cpu',
  IDENTITY_ADDR: 'identity gRPC address host:port',
  TRANSACTION_ADDR: 'transaction gRPC address host:port',
  CEREMONY_ADDR: 'ceremony gRPC address host:port',
  LEDGER_ADDR: 'ledger gRPC address host:port',
  BILLING_ADDR: 'billing gRPC address host:port',
  BIOMETRICS_ADDR: 'biometrics gRPC address host:port (the transaction service has it count the faces of each reference photo)',
  REFERENCE_FACE_CHECK:
    'tests only: off skips the one-face check of reference photos at creation (stacks without the biometrics models); refused when NODE_ENV is production',
  LEDGER_SIGNING_KEY: 'Ed25519 private key of the log: PKCS#8 PEM, PKCS#8 DER base64 or 32-byte seed base64 (secret)',
  LEDGER_ORIGIN: 'origin line of the log checkpoints and name of the log key',
  LEDGER_TEST_SIGNING_KEY:
    'Ed25519 private key of the test log, where test-mode certificates are sealed (not the live key); unset: test-mode transactions get no certificate (secret)',
  LEDGER_TEST_ORIGIN: 'origin line of the test log checkpoints and name of its key (not LEDGER_ORIGIN)',
  AUTH_RATE_LIMIT_SCALE: 'tests only: multiplies the auth routes rate limits (the API fuzzing test); refused in production',
  LEDGER_SEAL_POLL_MS: 'how often the ledger looks for certificates not yet in the log',
  LEDGER_LEASE_MS: 'lease of the single writer of the Merkle log',
  LEDGER_BATCH_MAX: 'most certificates appended under one checkpoint',
  LEDGER_WITNESSES: 'JSON list of C2SP tlog witnesses {"url", "key"} that cosign the checkpoints; none: no witnessing',
  LEDGER_WITNESS_QUORUM: 'witnesses that must cosign a checkpoint before it is served (default: all listed)',
  LEDGER_COSIGN_POLL_MS: 'how often the newest checkpoint is offered again to witnesses that have not cosigned it',
  LEDGER_WITNESS_TIMEOUT_MS: 'deadline of one add-checkpoint request to a witness',
  LEDGER_SEAL_CERT: 'signed PDF: the sealing certificate then its chain, PEM text or a PEM file path; unset: no signed PDFs',
  LEDGER_SEAL_KEY: 'signed PDF: the sealing private key (RSA or ECDSA P-256), PKCS#8 PEM text or file path (secret)',
  LEDGER_TSA_URLS: 'signed PDF: RFC 3161 time-stamping authorities, comma-separated, tried in order (required with the seal)',
  BUCKET_SIGNED: "bucket of the signed PDFs (the ledger's own)",
  LEDGER_SEAL_LTV:
    "signed PDF: on adds the validation data (the seal's and the TSA's certificates and CRLs) after the seal as a DSS update (PAdES B-LT)",
  LEDGER_SEAL_RETRY_MS: 'signed PDF: first wait before sealing again when no TSA answered (doubles per attempt, at most 1 h)',
  LEDGER_SEAL_LTA:
    'signed PDF: on (needs LEDGER_SEAL_LTV=on) adds a document timestamp after the DSS (PAdES B-LTA) and renews it before its TSA certificate expires',
  LEDGER_SEAL_CA_CERTS:
    "signed PDF, B-LTA: the CA certificates of the seal's and the TSAs' chains up to the roots, PEM text or file path, added to the validation data",
  LEDGER_RETIMESTAMP_MARGIN_MS:
    "signed PDF, B-LTA: timestamp a PDF again this long before its newest timestamp's TSA certificate expires",
  LEDGER_RETIMESTAMP_POLL_MS: 'signed PDF, B-LTA: how often a replica looks for PDFs due for a new document timestamp',
  DOWNLOAD_LINK_SECRET:
    "HS256 key of the completion mails' download links, the same in transaction and gateway, 32+ characters; unset: no completion mails (secret)",
  DOWNLOAD_LINK_TTL_SECONDS: "how long a completion mail's download link works",
  VERIFY_TRUST_ROOTS:
    "the roots a signed PDF dropped on /verify must chain to (the seal's and the TSA's CA), PEM text or file path; unset: that check answers 404 (not configured)",
  VERIFY_SIGNED_PDF_MAX_BYTES: 'largest signed PDF POST /api/verify/signed-pdf reads (larger: 413)',
};

type Row = { services: string[]; required: boolean; def: string };

function describeField(t: z.ZodType): { required: boolean; def: string } {
  const def = (t as unknown as { def: { type: string; defaultValue?: unknown; innerType?: z.ZodType; in?: z.ZodType } }).def;
  if (def.type === 'default')
    return {
      required: false,
      def: String(typeof def.defaultValue === 'function' ? (def.defaultValue as () => unknown)() : def.defaultValue),
    };
  if (def.type === 'optional') return { required: false, def: '' };
  if (def.type === 'pipe' && def.in) return describeField(def.in);
  return { required: true, def: '' };
}

export function configTable(): string {
  const rows = new Map<string, Row>();
  for (const [service, schema] of Object.entries(schemas)) {
    for (const [key, t] of Object.entries(schema.shape)) {
      const d = describeField(t as z.ZodType);
      const row = rows.get(key) ?? { services: [], required: d.required, def: d.def };
      row.services.push(service);
      rows.set(key, row);
    }
  }
  const lines = ['| variable | services | required | default | meaning |', '|---|---|---|---|---|'];
  for (const [key, r] of [...rows.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const services = r.services.length === 7 ? 'all' : r.services.join(', ');
    lines.push(
      `| \`${key}\` | ${services} | ${r.required ? 'yes' : 'no'} | ${r.def ? `\`${r.def}\`` : ''} | ${descriptions[key] ?? ''} |`,
    );
  }
  return lines.join('\n');
}

const START = '<!-- config-table:start -->';
const END = '<!-- config-table:end -->';

export function readmeWithTable(readme: string): string {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < 0) throw new Error('README.md lacks the config-table markers');
  return `${readme.slice(0, a + START.length)}\n${configTable()}\n${readme.slice(b)}`;
}

if (process.argv[1]?.endsWith('config-docs.ts')) {
  const path = join(import.meta.dirname, '..', 'README.md');
  if (process.argv.includes('--write')) writeFileSync(path, readmeWithTable(readFileSync(path, 'utf8')));
  else console.log(configTable());
}
