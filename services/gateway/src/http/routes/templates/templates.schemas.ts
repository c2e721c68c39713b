import { z } from 'zod';
import { ASSURANCE_LEVELS, idempotencyKey } from '../transactions/transactions.schemas.js';

/** Templates (issue 33 item 3): the request and answer shapes as the OpenAPI document describes them. */
export const MAX_ROLES = 10;
export const MAX_TEMPLATE_FIELDS = 200;

export const roleSchema = z
  .object({
    name: z.string().min(1).max(64).meta({ description: 'Unique in the template, e.g. client or witness' }),
    order: z
      .int()
      .min(1)
      .max(10)
      .optional()
      .meta({ description: 'Routing order (1 first; equal orders sign in parallel); default 1' }),
    verification: z
      .enum(['face_match', 'liveness_only'])
      .optional()
      .meta({ description: 'face_match (default) needs a photo for this role in each transaction; liveness_only none' }),
    webauthn: z.boolean().optional(),
    required_assurance: z.enum(ASSURANCE_LEVELS).optional().meta({ description: 'recorded, live (default) or live+webauthn' }),
  })
  .strict()
  .meta({ id: 'TemplateRole' });

const fieldSchema = z.record(z.string(), z.unknown()).meta({
  id: 'TemplateField',
  description:
    'A field as in a transaction’s `fields` (FormFieldSpec: type, id, required, readonly, label, value, max_length, pattern, options, ' +
    'page/x/y/width/height or anchor/offset_x/offset_y), with `role` (a role’s name) instead of `signer`.',
});

export const rolesSchema = z.array(roleSchema).min(1).max(MAX_ROLES);
export const fieldsSchema = z.array(fieldSchema).max(MAX_TEMPLATE_FIELDS);

const timestamp = z.string().meta({ description: 'ISO 8601 UTC', format: 'date-time' });

export const templateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    roles: z.array(
      z.object({
        name: z.string(),
        order: z.int(),
        verification: z.string().meta({ description: 'face_match or liveness_only' }),
        webauthn: z.boolean(),
        required_assurance: z.string().meta({ description: 'recorded, live or live+webauthn' }),
      }),
    ),
    fields: fieldsSchema,
    document_name: z.string(),
    document_sha256: z.string(),
    document_size: z.int(),
    pages: z
      .array(z.object({ width: z.number(), height: z.number() }))
      .meta({ description: 'The document’s pages as fields are placed on them (crop box, PDF points)' }),
    created_at: timestamp,
    updated_at: timestamp,
    test: z.boolean().meta({ description: 'Made with a test-mode API key: found only in test mode' }),
  })
  .meta({ id: 'Template' });

export const templateListSchema = z
  .object({
    items: z.array(templateSchema),
    next_cursor: z.string().nullable().meta({ description: 'Pass as cursor for the next page; null: no more' }),
  })
  .meta({ id: 'TemplateList' });

export const templateForm = z.object({
  name: z.string().meta({ description: 'The template’s name (1 to 200 characters)' }),
  roles: z.string().meta({
    description: 'JSON array of roles (TemplateRole), 1 to 10',
    example: '[{"name":"client"},{"name":"witness","order":2,"verification":"liveness_only"}]',
  }),
  fields: z
    .string()
    .optional()
    .meta({
      description:
        'JSON array of fields (TemplateField), at most 200, checked as a transaction’s: off the page, on a page that does not exist, ' +
        'overlapping a field of another role, an anchor not found → 400, nothing stored.',
      example:
        '[{"id":"client_sig","type":"signature","role":"client","page":1,"x":72,"y":100,"width":180,"height":50},{"id":"company","type":"text","role":"client","anchor":"{{company}}","width":150}]',
    }),
  document: z.string().meta({ format: 'binary', description: 'PDF, at most 200 MB, that the sealer can open' }),
});

export const templateParams = z.object({
  id: z
    .string()
    .regex(/^tpl_[0-9a-z]{1,40}$/)
    .meta({ description: 'Template id', example: 'tpl_m3x9k2a1b7hq4zt0c8pd' }),
});

export const templateListQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .optional(),
  cursor: z
    .string()
    .regex(/^tpl_[0-9a-z]{1,40}$/, 'cursor is not valid')
    .optional(),
});

export const updateBody = z
  .object({
    name: z.string().optional(),
    roles: rolesSchema.optional(),
    fields: fieldsSchema.optional(),
  })
  .strict();

/** A JPEG or PNG photo as base64 (at most 10 MB once decoded). */
const MAX_PHOTO_B64 = Math.ceil((10 * 1024 * 1024) / 3) * 4;
const lifecycle = {
  expires_at: z.string().optional().meta({ format: 'date-time', description: 'When the signing links stop working (RFC 3339)' }),
  reminder_first_after_seconds: z.int().min(0).optional(),
  reminder_every_seconds: z.int().min(0).optional(),
  reminder_max: z.int().min(0).max(50).optional().meta({ description: '0: no reminders' }),
};

export const fromTemplateBody = z
  .object({
    signers: z
      .array(
        z
          .object({
            role: z.string().min(1).max(64),
            name: z.string().min(1).max(200),
            email: z.email(),
            photo: z.base64().max(MAX_PHOTO_B64, 'photo must be at most 10 MB').optional().meta({
              description:
                'The signer’s face photo (JPEG or PNG, at most 10 MB, exactly one face), base64; required for a face_match role',
            }),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_ROLES)
      .meta({ description: 'One signer per role of the template' }),
    values: z
      .record(z.string(), z.union([z.string(), z.boolean()]))
      .optional()
      .meta({ description: 'Prefilled values by field id (text and dropdown: a string; checkbox: true or false)' }),
    document_name: z.string().max(200).optional().meta({ description: 'Default: the template’s' }),
    ...lifecycle,
  })
  .strict();

export const fromTemplateHeaders = z.object({
  'Idempotency-Key': idempotencyKey
    .optional()
    .meta({ description: 'Retrying with the same key and body answers the first result (Idempotent-Replayed: true)' }),
});
