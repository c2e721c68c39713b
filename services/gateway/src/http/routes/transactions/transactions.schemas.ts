import { z } from 'zod';

export const ATTESTATION_TYPES = ['signature', 'approval', 'review', 'consent'] as const;
export const STATUSES = ['created', 'consent_accepted', 'capture_accepted', 'ledger_issued', 'failed', 'cancelled'] as const;
export const MAX_QUERY = 100;
export const TEXT_FIELDS = new Set(['signer_name', 'signer_email', 'attestation_type', 'signer_emails']);

const email = (field: string) => z.email({ error: `${field}: is not an email address` }).max(254, `${field}: is too long`);
export const fieldsSchema = z.object({
  signer_name: z
    .string({ error: 'signer_name: is required' })
    .trim()
    .min(1, 'signer_name: is required')
    .max(200, 'signer_name: must be at most 200 characters'),
  signer_email: z
    .string({ error: 'signer_email: is required' })
    .trim()
    .min(1, 'signer_email: is required')
    .pipe(email('signer_email')),
  attestation_type: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || 'signature')
    .pipe(z.enum(ATTESTATION_TYPES, { error: `attestation_type: must be one of ${ATTESTATION_TYPES.join(', ')}` })),
  signer_emails: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(email('signer_emails')).max(4, 'signer_emails: at most 4 additional signers')),
});
export const idempotencyKey = z.string().regex(/^[\x21-\x7e]{1,255}$/, 'Idempotency-Key must be 1-255 visible ASCII characters');
export const listQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(200, 'limit must be at most 200')
    .optional(),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'cursor is not valid')
    .optional(),
  // An empty status or q (an untouched form field) means no filter.
  status: z
    .string({ error: `status: must be one of ${STATUSES.join(', ')}` })
    .optional()
    .transform((v) => v || undefined)
    .pipe(z.enum(STATUSES, { error: `status: must be one of ${STATUSES.join(', ')}` }).optional()),
  q: z
    .string({ error: 'q: must be one search text' })
    .trim()
    .max(MAX_QUERY, `q: must be at most ${MAX_QUERY} characters`)
    .optional()
    .transform((v) => v || undefined),
});

export function firstIssue(err: z.ZodError): string {
  return err.issues[0]?.message ?? 'invalid request';
}

// The shapes of the answers (OpenAPI and, in tests, checked on every answer).

/** A path id: 1 to 15 digits, not all zero; anything else is a transaction that does not exist (404, never 400). */
export const transactionId = z.object({
  id: z
    .string()
    .regex(/^(?=\d*[1-9])\d{1,15}$/)
    .meta({ description: 'Transaction id', example: '42' }),
});

const timestamp = z.string().meta({ description: 'ISO 8601 UTC', format: 'date-time' });

export const summarySchema = z
  .object({
    id: z.int(),
    token: z.string().meta({ description: 'Signing token (a bearer secret of the signing link)' }),
    signer_name: z.string(),
    signer_email: z.string(),
    status: z.enum(STATUSES),
    verification_mode: z.string().meta({ description: 'biometric, or the mode verification used' }),
    created_at: timestamp,
    verified_at: timestamp.optional().meta({ description: 'Only once verified' }),
    reference: z.string().meta({ description: 'Certificate reference <prefix>-TX-<8 digits>' }),
  })
  .meta({ id: 'TransactionSummary' });

export const detailSchema = summarySchema
  .extend({
    attestation_type: z.string(),
    document_name: z.string(),
    document_sha256: z.string(),
    signers: z.array(
      z.object({
        index: z.int(),
        name: z.string(),
        email: z.string(),
        state: z.string(),
        verification_mode: z.string(),
        attempts_left: z.int(),
      }),
    ),
    events: z.array(
      z.object({ type: z.string(), at: timestamp, actor: z.string(), detail: z.string() }).meta({ id: 'TransactionEvent' }),
    ),
    retention_days: z.int().meta({ description: 'Days the biometric data is kept after the transaction ends' }),
    biometrics_delete_after: timestamp
      .meta({
        description: 'When the biometric data is due for erasure; null until the transaction has ended',
        format: 'date-time',
      })
      .nullable(),
    biometrics_erased_at: timestamp.optional().meta({ description: 'When the biometric data was erased; only once erased' }),
  })
  .meta({ id: 'TransactionDetail' });

export const createdSchema = z
  .object({
    id: z.int(),
    reference: z.string(),
    token: z.string(),
    sign_url: z.string().meta({ description: '{base_url}/sign/<token>' }),
    status: z.string(),
  })
  .meta({ id: 'TransactionCreated' });

export const creationForm = z.object({
  signer_name: z.string().max(200).meta({ description: 'Full legal name' }),
  signer_email: z.email().meta({ description: 'Receives the signing link' }),
  attestation_type: z.enum(ATTESTATION_TYPES).default('signature').optional(),
  signer_emails: z.string().optional().meta({ description: 'Comma-separated additional signers, up to 4' }),
  document: z.string().meta({ format: 'binary', description: 'PDF beginning with %PDF-, at most 200 MB' }),
  reference: z.string().meta({ format: 'binary', description: 'JPEG or PNG face photo, at most 10 MB' }),
});

export const creationHeaders = z.object({
  'Idempotency-Key': idempotencyKey
    .optional()
    .meta({ description: 'Retrying with the same key and body answers the first result (Idempotent-Replayed: true)' }),
});
