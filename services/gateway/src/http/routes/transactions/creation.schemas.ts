import { z } from 'zod';
import {
  ASSURANCE_LEVELS,
  ATTESTATION_TYPES,
  idempotencyKey,
  LOCALE_HELP,
  MAX_PARTIES,
  SIGNER_LOCALES,
} from './transactions.schemas.js';

/** The creation request and answer as the OpenAPI document describes them (create.upload.ts reads the stream). */
export const createdSchema = z
  .object({
    id: z.int(),
    reference: z.string(),
    token: z.string(),
    sign_url: z.string().meta({ description: '{base_url}/sign/<token>' }),
    status: z.string(),
    test: z.boolean().meta({ description: 'Made with a test-mode API key (no quota or credit used)' }),
  })
  .meta({ id: 'TransactionCreated' });

const photo = (i: number) =>
  z
    .string()
    .optional()
    .meta({
      format: 'binary',
      description: `Reference face photo of signers[${i}] (JPEG or PNG, at most 10 MB, exactly one face)`,
    });

/**
 * Two forms: the one-signer form (signer_name, signer_email, optional signer_emails, and `reference`),
 * or `signers` (a JSON list of parties) with a part signer_photo_<index> for each face_match signer.
 */
export const creationForm = z.object({
  signer_name: z.string().max(200).optional().meta({ description: 'Full legal name (one-signer form; required there)' }),
  signer_email: z.email().optional().meta({ description: 'Receives the signing link (one-signer form; required there)' }),
  attestation_type: z.enum(ATTESTATION_TYPES).default('signature').optional(),
  signer_emails: z
    .string()
    .optional()
    .meta({ description: 'Comma-separated additional signers, up to 4, liveness only (one-signer form)' }),
  signers: z
    .string()
    .optional()
    .meta({
      description:
        'JSON array of parties (TransactionParty: name, email, role, order, verification, webauthn, required_assurance, locale), at most 10; instead of signer_name/signer_email/signer_emails/reference. ' +
        'Each face_match signer sends their reference photo as the part signer_photo_<index>, <index> being their position in this array (0-based). ' +
        'Every reference photo must show exactly one face.',
      example:
        '[{"name":"Ada Lovelace","email":"ada@example.com","order":1},{"name":"Bob","email":"bob@example.com","order":2,"verification":"liveness_only"}]',
    }),
  fields: z
    .string()
    .optional()
    .meta({
      description:
        'JSON array of fields placed on the document (FormFieldSpec), at most 200, each filled by one signer before the ceremony: ' +
        'type (signature, initials, date_signed, full_name, email, text, checkbox, dropdown), signer (position in signers, 0-based; the one-signer form: 0, then signer_emails), ' +
        'id (optional, unique), required (default true), readonly (needs value), label, value (prefilled: text, dropdown, checkbox), ' +
        'text: max_length (default 200, at most 1000), pattern (RE2 syntax, the whole value must match); dropdown: options. ' +
        'Where: page (1 = first), x, y, width, height in PDF points from the lower-left corner of the page as shown (crop box); ' +
        'or anchor: a text in the PDF (e.g. {{signature:signer1}}) — every occurrence places the field at the text, offset by offset_x/offset_y, sized by width/height (default: the text’s box). ' +
        'Refused with 400 and nothing stored: a field off its page, on a page that does not exist, overlapping a field of another signer, an anchor not found, a value that breaks its rules.',
      example:
        '[{"id":"sig","type":"signature","signer":0,"page":1,"x":72,"y":100,"width":180,"height":50},{"type":"text","signer":1,"anchor":"{{company:signer2}}","width":150,"max_length":80}]',
    }),
  required_assurance: z
    .enum(ASSURANCE_LEVELS)
    .optional()
    .meta({
      description:
        'One-signer form: the lowest assurance accepted from each of its signers — recorded, live (default) or live+webauthn (implies WebAuthn). ' +
        'A capture below it is refused before analysis and uses up its challenge; the single upload (GET …/challenge, POST …/capture) is accepted only with recorded. ' +
        'With signers, each party gives its own.',
    }),
  signer_locale: z
    .enum(SIGNER_LOCALES)
    .optional()
    .meta({ description: `One-signer form: ${LOCALE_HELP} With signers, each party gives its own locale.` }),
  document: z.string().meta({
    format: 'binary',
    description:
      'PDF, at most 200 MB, that the sealer can open: an encrypted, damaged or truncated PDF, or a %PDF- header without a version, is refused with 400 naming why. Its file name (filename or RFC 5987 filename*) is read as UTF-8.',
  }),
  reference: z.string().optional().meta({
    format: 'binary',
    description: 'JPEG or PNG face photo showing exactly one face, at most 10 MB (one-signer form; required there)',
  }),
  ...Object.fromEntries(Array.from({ length: MAX_PARTIES }, (_, i) => [`signer_photo_${i}`, photo(i)])),
  expires_at: z.string().optional().meta({
    description:
      'When the signing links stop working (RFC 3339 with a time zone); in the future, at most 180 days ahead. Default: the account’s expiry_days (30 days unless set)',
    format: 'date-time',
  }),
  reminder_first_after_seconds: z
    .string()
    .optional()
    .meta({ description: 'First automatic reminder this long after creation (default: the account’s reminder schedule)' }),
  reminder_every_seconds: z.string().optional().meta({ description: 'Then a reminder this often' }),
  reminder_max: z.string().optional().meta({ description: 'At most this many reminders (0: none; at most 20)' }),
});

export const creationHeaders = z.object({
  'Idempotency-Key': idempotencyKey
    .optional()
    .meta({ description: 'Retrying with the same key and body answers the first result (Idempotent-Replayed: true)' }),
});
