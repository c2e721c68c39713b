import { createPublicKey } from 'node:crypto';
import { z } from 'zod';
import { baseSchema, env } from '@signet/kit';
import { sealingConfigSchema, sealingConfigIssues } from './seal.config.js';
import { parseRetiredKeys, parseSigningKey, type RetiredKey } from './domain/signer.js';
import { witnessConfigFields } from './witness/witness.config.js';

export const ledgerConfigSchema = baseSchema
  .extend({
    GRPC_PORT: env.port,
    MONGO_URL: env.mongoUrl,
    MONGO_DB: z.string().default('signet_ledger'),
    NATS_URL: env.natsUrl,
    /** The log's Ed25519 private key: PKCS#8 PEM, PKCS#8 DER in base64, or the 32-byte seed in base64. No default. */
    LEDGER_SIGNING_KEY: z
      .string({ error: 'required' })
      .min(1, 'required')
      .refine((v) => {
        try {
          parseSigningKey(v);
          return true;
        } catch {
          return false;
        }
      }, 'must be an Ed25519 private key (PKCS#8 PEM, base64 PKCS#8 DER, or base64 32-byte seed)'),
    /** Since when LEDGER_SIGNING_KEY signs (RFC 3339), listed with it by the public-key route; unset: open. */
    LEDGER_SIGNING_KEY_NOT_BEFORE: z.iso.datetime({ offset: true }).optional(),
    /**
     * Key rotation: the log's earlier public keys, still listed by the public-key route so what they
     * signed keeps verifying. JSON `[{"verifier_key", "not_before", "not_after"}]` (see domain/signer.ts parseRetiredKeys).
     */
    LEDGER_RETIRED_KEYS: z.string().optional(),
    /** The log's origin (C2SP checkpoint first line and signed-note key name): schema-less URL, no spaces or "+". */
    LEDGER_ORIGIN: z
      .string()
      .regex(/^[^\s+]+$/, 'must be a schema-less URL without spaces or "+"')
      .default('signet.local/ledger'),
    /**
     * The test log's Ed25519 private key (test mode: test-mode certificates are sealed there, never in
     * the live log); same formats as LEDGER_SIGNING_KEY, and a different key. Unset: no test log, and
     * test-mode transactions get no certificate. No default.
     */
    LEDGER_TEST_SIGNING_KEY: z
      .string()
      .optional()
      .refine((v) => {
        if (!v) return true;
        try {
          parseSigningKey(v);
          return true;
        } catch {
          return false;
        }
      }, 'must be an Ed25519 private key (PKCS#8 PEM, base64 PKCS#8 DER, or base64 32-byte seed)'),
    /** The test log's origin: what its checkpoints and signed notes are named (never the live origin). */
    LEDGER_TEST_ORIGIN: z
      .string()
      .regex(/^[^\s+]+$/, 'must be a schema-less URL without spaces or "+"')
      .default('signet.local/ledger/test'),
    /** Where the public /verify page lives (QR code on the certificate PDF). */
    PUBLIC_BASE_URL: env.httpUrl.default('http://localhost:8080'),
    /** How often a replica looks for certificates left unsealed (after a crash, or while another held the lease). */
    LEDGER_SEAL_POLL_MS: env.duration.default(1000),
    /** The append lease: a writer that stops holding it for this long is replaced. */
    LEDGER_LEASE_MS: env.duration.default(10_000),
    /** Most certificates appended under one checkpoint. */
    LEDGER_BATCH_MAX: env.duration.default(500),
    // The C2SP tlog witnesses cosigning the checkpoints, their quorum and the cosigning job; none = off.
    ...witnessConfigFields,
  })
  // The signed PDF (issue 17): its seal, time-stamping authorities and storage; off when unset.
  .extend(sealingConfigSchema.shape)
  .superRefine(sealingConfigIssues)
  .superRefine((c, ctx) => {
    if (c.LEDGER_TEST_SIGNING_KEY && c.LEDGER_TEST_SIGNING_KEY.trim() === c.LEDGER_SIGNING_KEY.trim())
      ctx.addIssue({ code: 'custom', path: ['LEDGER_TEST_SIGNING_KEY'], message: 'must not be the live log key' });
    let retired: RetiredKey[] = [];
    try {
      retired = parseRetiredKeys(c.LEDGER_RETIRED_KEYS, c.LEDGER_ORIGIN);
    } catch (err) {
      ctx.addIssue({ code: 'custom', path: ['LEDGER_RETIRED_KEYS'], message: (err as Error).message });
    }
    try {
      const spki = createPublicKey(parseSigningKey(c.LEDGER_SIGNING_KEY)).export({ format: 'der', type: 'spki' });
      if (retired.some((r) => r.publicKey.equals(spki.subarray(-32))))
        ctx.addIssue({ code: 'custom', path: ['LEDGER_RETIRED_KEYS'], message: 'must not list the current signing key' });
    } catch {
      // A bad signing key is reported on its own field.
    }
    if (c.LEDGER_TEST_ORIGIN === c.LEDGER_ORIGIN)
      ctx.addIssue({ code: 'custom', path: ['LEDGER_TEST_ORIGIN'], message: 'must differ from LEDGER_ORIGIN' });
  });

export type LedgerConfig = z.infer<typeof ledgerConfigSchema>;
