import { z } from 'zod';
import { env } from '@signet/kit';

const optional = z
  .string()
  .optional()
  .transform((v) => (v?.trim() ? v : undefined));

/**
 * The signed PDF's configuration (LedgerConfig includes it). Sealing is on when LEDGER_SEAL_CERT and
 * LEDGER_SEAL_KEY are set, and then needs the TSA URLs and object storage too; no key has a default.
 */
export const sealingConfigSchema = z.object({
  /** The sealing certificate, then its chain: PEM text, or the path of a PEM file. */
  LEDGER_SEAL_CERT: optional,
  /** Its private key (RSA or ECDSA P-256), PKCS#8 PEM text or the path of a PEM file. Secret, no default. */
  LEDGER_SEAL_KEY: optional,
  /** RFC 3161 time-stamping authorities, comma-separated, tried in order. */
  LEDGER_TSA_URLS: optional,
  S3_ENDPOINT: env.optionalUrl,
  S3_ACCESS_KEY: optional,
  S3_SECRET_KEY: optional,
  S3_REGION: z.string().default('us-east-1'),
  /** The transaction service's documents bucket, read by object key (the document being sealed). */
  BUCKET_DOCUMENTS: z.string().default('signet-documents'),
  /** The ledger's own bucket of signed PDFs. */
  BUCKET_SIGNED: z.string().default('signet-signed'),
  /**
   * on: PAdES B-LT — after the B-T seal, the certificates of the seal's and the TSA's chains and the
   * CRLs their distribution points serve are appended as a DSS update (a CRL that cannot be fetched
   * makes the sealing wait and retry, like a TSA that does not answer). off: B-T only.
   */
  LEDGER_SEAL_LTV: z.enum(['on', 'off']).default('off'),
  /** Wait before sealing again after no TSA answered (doubles per attempt, at most 1 h). */
  LEDGER_SEAL_RETRY_MS: env.duration.default(30_000),
  /**
   * on: PAdES B-LTA (needs LEDGER_SEAL_LTV=on) — after the DSS, a document timestamp over the whole
   * file (pdf/doc-timestamp.ts); and the re-timestamping job renews it before the newest timestamp's
   * TSA certificate expires. off: the PDF stays as sealed.
   */
  LEDGER_SEAL_LTA: z.enum(['on', 'off']).default('off'),
  /**
   * The CA certificates of the seal's and the TSAs' chains up to their roots (PEM text or the path of
   * a PEM file), added to the validation data before each document timestamp so the whole path is in
   * the file (an LTA validator needs the trust anchor's certificate among what the timestamp covers).
   */
  LEDGER_SEAL_CA_CERTS: optional,
  /**
   * Test mode's seal (issue 32): the certificate (then its chain) and PKCS#8 key that seal the test
   * transactions' signed PDFs, PEM text or file paths, never under the live roots. Unset: a self-signed
   * "Signet TEST seal" certificate is made at start (pdf/test-seal.ts).
   */
  LEDGER_TEST_SEAL_CERT: optional,
  LEDGER_TEST_SEAL_KEY: optional,
  /** B-LTA: a PDF is timestamped again this long before its newest timestamp's TSA certificate expires (default 90 days). */
  LEDGER_RETIMESTAMP_MARGIN_MS: env.duration.default(90 * 86_400_000),
  /** How often a replica looks for signed PDFs due for a new document timestamp (one replica takes each). */
  LEDGER_RETIMESTAMP_POLL_MS: env.duration.default(3_600_000),
});

type SealingInput = z.infer<typeof sealingConfigSchema>;

/** Both key and certificate, or neither; with them, the TSA URLs and S3 settings. */
export function sealingConfigIssues(cfg: SealingInput, ctx: z.RefinementCtx): void {
  const on = Boolean(cfg.LEDGER_SEAL_CERT || cfg.LEDGER_SEAL_KEY);
  if (!on) return;
  const need = [
    'LEDGER_SEAL_CERT',
    'LEDGER_SEAL_KEY',
    'LEDGER_TSA_URLS',
    'S3_ENDPOINT',
    'S3_ACCESS_KEY',
    'S3_SECRET_KEY',
  ] as const;
  for (const k of need)
    if (!cfg[k])
      ctx.addIssue({ code: 'custom', path: [k], message: 'required when the signed PDF is sealed (LEDGER_SEAL_CERT/KEY set)' });
  if (Boolean(cfg.LEDGER_TEST_SEAL_CERT) !== Boolean(cfg.LEDGER_TEST_SEAL_KEY))
    ctx.addIssue({
      code: 'custom',
      path: ['LEDGER_TEST_SEAL_KEY'],
      message: 'LEDGER_TEST_SEAL_CERT and LEDGER_TEST_SEAL_KEY go together',
    });
  if (cfg.LEDGER_SEAL_LTA === 'on' && cfg.LEDGER_SEAL_LTV !== 'on')
    ctx.addIssue({ code: 'custom', path: ['LEDGER_SEAL_LTA'], message: 'needs LEDGER_SEAL_LTV=on (B-LTA extends B-LT)' });
  for (const u of (cfg.LEDGER_TSA_URLS ?? '').split(',').filter((x) => x.trim()))
    if (!/^https?:\/\/\S+$/.test(u.trim()))
      ctx.addIssue({ code: 'custom', path: ['LEDGER_TSA_URLS'], message: 'must be http(s) URLs, comma-separated' });
}

export type SealingSettings = {
  certPem: string;
  keyPem: string;
  tsaUrls: string[];
  s3: { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string; S3_REGION: string };
  documentsBucket: string;
  signedBucket: string;
  retryMs: number;
  /** Add the validation data (B-LT). */
  ltv: boolean;
  /** Test mode's seal as configured (PEM text); absent: generated at start. */
  testSeal: { certPem?: string; keyPem?: string };
  /** B-LTA: the document timestamp at sealing and its renewal; null when off. */
  lta: { caCertsPem: string; marginMs: number; pollMs: number } | null;
};

/** The settings when sealing is on (values, or the files they name, read once at start), else null. */
export function sealingSettings(cfg: SealingInput, readFile: (path: string) => string): SealingSettings | null {
  if (!cfg.LEDGER_SEAL_CERT || !cfg.LEDGER_SEAL_KEY) return null;
  const pem = (v: string) => (v.includes('-----BEGIN') ? v : readFile(v));
  return {
    certPem: pem(cfg.LEDGER_SEAL_CERT),
    keyPem: pem(cfg.LEDGER_SEAL_KEY),
    tsaUrls: cfg
      .LEDGER_TSA_URLS!.split(',')
      .map((u) => u.trim())
      .filter(Boolean),
    s3: {
      S3_ENDPOINT: cfg.S3_ENDPOINT!,
      S3_ACCESS_KEY: cfg.S3_ACCESS_KEY!,
      S3_SECRET_KEY: cfg.S3_SECRET_KEY!,
      S3_REGION: cfg.S3_REGION,
    },
    documentsBucket: cfg.BUCKET_DOCUMENTS,
    signedBucket: cfg.BUCKET_SIGNED,
    retryMs: cfg.LEDGER_SEAL_RETRY_MS,
    ltv: cfg.LEDGER_SEAL_LTV === 'on',
    testSeal:
      cfg.LEDGER_TEST_SEAL_CERT && cfg.LEDGER_TEST_SEAL_KEY
        ? { certPem: pem(cfg.LEDGER_TEST_SEAL_CERT), keyPem: pem(cfg.LEDGER_TEST_SEAL_KEY) }
        : {},
    lta:
      cfg.LEDGER_SEAL_LTA === 'on'
        ? {
            caCertsPem: cfg.LEDGER_SEAL_CA_CERTS ? pem(cfg.LEDGER_SEAL_CA_CERTS) : '',
            marginMs: cfg.LEDGER_RETIMESTAMP_MARGIN_MS,
            pollMs: cfg.LEDGER_RETIMESTAMP_POLL_MS,
          }
        : null,
  };
}
