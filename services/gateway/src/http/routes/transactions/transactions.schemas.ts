import { z } from 'zod';
import { assuranceLevelSchema } from '../../assurance.schemas.js';
import { text } from '../../text.js';

export const ATTESTATION_TYPES = ['signature', 'approval', 'review', 'consent'] as const;
export const STATUSES = [
  'created',
  'consent_accepted',
  'capture_accepted',
  'ledger_issued',
  'failed',
  'cancelled',
  'declined',
  'expired',
] as const;
export const MAX_QUERY = 100;
/** What a signer's capture must prove at least (issue 30); the default is live. */
export const ASSURANCE_LEVELS = ['recorded', 'live', 'live+webauthn'] as const;
export type RequiredAssurance = (typeof ASSURANCE_LEVELS)[number];
const ASSURANCE_HELP =
  'The lowest assurance accepted from this signer: recorded (a single upload, or a live recording that failed the real-time checks), ' +
  'live (default: produced in real time as the prompts were revealed), live+webauthn (live and a passkey or security key; implies webauthn). ' +
  'A capture below it is refused before analysis and uses up its challenge; the single upload is accepted only with recorded.';
const requiredAssurance = (field: string) =>
  z
    .string({ error: `${field}: must be one of ${ASSURANCE_LEVELS.join(', ')}` })
    .trim()
    .pipe(z.enum(ASSURANCE_LEVELS, { error: `${field}: must be one of ${ASSURANCE_LEVELS.join(', ')}` }))
    .optional();
/** The languages of the signing page and the signers' mails (issue 34 item 5); the transaction service checks the same. */
export const SIGNER_LOCALES = ['en', 'de', 'fr', 'es', 'pl', 'pt', 'ar', 'zh'] as const;
export type SignerLocale = (typeof SIGNER_LOCALES)[number];
export const LOCALE_HELP =
  'The language of the signing page and of the mails to this signer: en, de, fr, es, pl, pt, ar (right to left) or zh. ' +
  'Absent: the page follows the signer’s browser and mails are in English. The words read aloud stay English.';
const signerLocale = (field: string) =>
  z
    .string({ error: `${field}: must be one of ${SIGNER_LOCALES.join(', ')}` })
    .trim()
    .toLowerCase()
    .pipe(z.enum(SIGNER_LOCALES, { error: `${field}: must be one of ${SIGNER_LOCALES.join(', ')}` }))
    .optional();
/** Expiry and reminder schedule of a creation (issue 18): optional text fields, checked again by the transaction service. */
export const LIFECYCLE_FIELDS = ['expires_at', 'reminder_first_after_seconds', 'reminder_every_seconds', 'reminder_max'] as const;
const seconds = (field: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${field}: must be a whole number of seconds`)
    .transform(Number)
    .pipe(z.int().min(1, `${field}: must be at least 1`))
    .optional();
const lifecycleFields = {
  expires_at: text({ field: 'expires_at', max: 64 }).optional(),
  reminder_first_after_seconds: seconds('reminder_first_after_seconds'),
  reminder_every_seconds: seconds('reminder_every_seconds'),
  reminder_max: z
    .string()
    .regex(/^\d{1,2}$/, 'reminder_max: must be a whole number from 0 to 20')
    .transform(Number)
    .pipe(z.int().max(20, 'reminder_max: must be a whole number from 0 to 20'))
    .optional(),
};
export const TEXT_FIELDS = new Set([
  'signer_name',
  'signer_email',
  'attestation_type',
  'signer_emails',
  'signers',
  'required_assurance',
  'signer_locale',
  'fields',
  ...LIFECYCLE_FIELDS,
]);
/** Parties of one transaction (signers, approvers, viewers); a signer's photo part is signer_photo_<index>. */
export const MAX_PARTIES = 10;
export const SIGNER_PHOTO = /^signer_photo_(\d{1,2})$/;

const email = (field: string) => z.email({ error: `${field}: is not an email address` }).max(254, `${field}: is too long`);
export const fieldsSchema = z.object({
  signer_name: text({ field: 'signer_name', trim: true, nfc: true, max: 200 }).min(1, 'signer_name: is required'),
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
  required_assurance: requiredAssurance('required_assurance'),
  signer_locale: signerLocale('signer_locale'),
  ...lifecycleFields,
});
/** One party of the `signers` list (a JSON text field); the transaction service checks the values and names the signer. */
export const partySchema = z
  .object({
    name: text({ nfc: true, max: 200 }).meta({ description: 'Full legal name' }),
    email: z.string().max(254).meta({ description: 'Receives the signing link (a viewer: the result)' }),
    role: z.enum(['signer', 'approver', 'viewer']).optional().meta({
      description: 'signer (default) or approver go through the ceremony; a viewer only receives the result',
    }),
    order: z.int().min(1).max(10).optional().meta({
      description:
        'Routing order, 1 (default) first: equal orders sign in parallel, the next order is invited once all of them passed',
    }),
    verification: z.enum(['face_match', 'liveness_only']).optional().meta({
      description:
        "face_match (default): liveness and a match against this signer's reference photo, the part signer_photo_<index>; liveness_only: chosen explicitly, no photo. None for a viewer",
    }),
    webauthn: z.boolean().optional().meta({ description: 'The signer also confirms with a passkey or security key' }),
    required_assurance: z
      .enum(ASSURANCE_LEVELS, { error: `must be one of ${ASSURANCE_LEVELS.join(', ')}` })
      .optional()
      .meta({ description: `${ASSURANCE_HELP} None for a viewer.` }),
    locale: z
      .string()
      .toLowerCase()
      .pipe(z.enum(SIGNER_LOCALES, { error: `must be one of ${SIGNER_LOCALES.join(', ')}` }))
      .optional()
      .meta({ description: LOCALE_HELP }),
  })
  .strict()
  .refine((p) => !(p.required_assurance === 'live+webauthn' && p.webauthn === false), {
    path: ['webauthn'],
    message: 'must not be false with required_assurance live+webauthn (which includes WebAuthn)',
  })
  .meta({ id: 'TransactionParty' });

/** The `signers` field: a JSON array of parties; the first issue names the signer by index. */
export const partiesSchema = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'signers: is not valid JSON' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(partySchema, { error: 'signers: must be a JSON array of parties' })
      .min(1, 'signers: must list at least one signer')
      .max(MAX_PARTIES, `signers: at most ${MAX_PARTIES} parties`),
  );

export function partyIssue(err: z.ZodError): string {
  const issue = err.issues[0];
  if (!issue) return 'signers: is not valid';
  if (issue.message.startsWith('signers:')) return issue.message;
  const [index, field] = issue.path;
  return typeof index === 'number'
    ? `signers[${index}]${field !== undefined ? `.${String(field)}` : ''}: ${issue.message}`
    : `signers: ${issue.message}`;
}

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
  // NFC like the names it is matched against (a name typed with a combining accent still finds the stored one).
  q: text({ field: 'q', trim: true, nfc: true, max: MAX_QUERY })
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
    test: z.boolean().meta({
      description: 'Made with a test-mode API key: free, listed and found only with test keys, sealed in the test log',
    }),
  })
  .meta({ id: 'TransactionSummary' });

/** A transaction's legal hold (issue 21): nothing of it is deleted while it is set. */
export const legalHoldSchema = z
  .object({
    since: timestamp.meta({ description: 'Since when' }),
    reason: z.string().meta({ description: 'Why the data must be kept (may be empty)' }),
  })
  .meta({ id: 'LegalHold' });

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
        role: z.string().meta({ description: 'signer or approver' }),
        order: z.int().meta({ description: 'Routing order: 1 first, equal orders in parallel' }),
        webauthn: z.boolean().meta({ description: 'Also confirms with WebAuthn' }),
        required_assurance: z.enum(ASSURANCE_LEVELS).meta({
          description:
            'The lowest assurance the sender accepts from this signer (recorded, live, live+webauthn); recorded on transactions created before it existed',
        }),
        assurance: assuranceLevelSchema.nullable().meta({
          description:
            'What this signer’s passing capture proved (test, recorded, live, live+webauthn); null until the signer passed',
        }),
        assurance_meaning: z.string().nullable().meta({
          description: 'One plain sentence saying what `assurance` proves and what it does not; null until the signer passed',
        }),
        locale: z.enum(SIGNER_LOCALES).nullable().meta({
          description:
            'The language the sender chose for this signer’s page and mails; null: not chosen (the browser’s, mails in English)',
        }),
      }),
    ),
    assurance: assuranceLevelSchema.nullable().meta({
      description:
        'What the transaction proves as a whole once every signer passed: the weakest signer’s assurance, as its certificate states it; null until then',
    }),
    assurance_meaning: z
      .string()
      .nullable()
      .meta({ description: 'One plain sentence saying what `assurance` proves; null until every signer passed' }),
    events: z.array(
      z.object({ type: z.string(), at: timestamp, actor: z.string(), detail: z.string() }).meta({ id: 'TransactionEvent' }),
    ),
    viewers: z
      .array(z.object({ name: z.string(), email: z.string(), order: z.int() }))
      .meta({ description: 'Parties who only receive the result (no signing link, not certified)' }),
    retention_days: z.int().meta({ description: 'Days the biometric data is kept after the transaction ends' }),
    biometrics_delete_after: timestamp
      .meta({
        description: 'When the biometric data is due for erasure; null until the transaction has ended',
        format: 'date-time',
      })
      .nullable(),
    biometrics_erased_at: timestamp.optional().meta({ description: 'When the biometric data was erased; only once erased' }),
    expires_at: timestamp
      .nullable()
      .meta({ description: 'When the signing links stop working; null for transactions created before expiry existed' }),
    legal_hold: legalHoldSchema
      .nullable()
      .meta({ description: 'The legal hold: while set nothing of the transaction is deleted; null when there is none' }),
    created_by: z
      .object({ user_id: z.string(), email: z.string() })
      .nullable()
      .meta({ description: 'The member of the organisation who created it; null for transactions made before members existed' }),
    reminders: z
      .object({
        sent: z.int().meta({ description: 'Automatic reminders sent so far' }),
        max: z.int().meta({ description: 'At most this many are sent' }),
        next_at: timestamp.nullable().meta({ description: 'When the next is due; null when none is' }),
      })
      .meta({ description: 'The automatic reminder schedule (to signers who have not finished)' }),
  })
  .meta({ id: 'TransactionDetail' });
