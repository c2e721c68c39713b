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
