import { z } from 'zod';
import { MAX_ROWS } from './bulk-input.js';

export const templateId = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });
export const bulkJobId = z.object({ id: z.string().regex(/^bj_[A-Za-z0-9]{1,40}$/) });

export const bulkListQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .optional(),
  cursor: z
    .string()
    .regex(/^bj_[A-Za-z0-9]{1,40}$/, 'cursor is not valid')
    .optional(),
});

const signer = z.strictObject({
  name: z.string().max(1000),
  email: z.string().max(1000),
  photo: z.string().max(14_000_000).optional().meta({
    description: 'A base64 JPEG or PNG showing the signer’s face (face-match roles); the same photo may be given on many rows',
  }),
});

export const bulkJsonBody = z
  .strictObject({
    rows: z
      .array(
        z.strictObject({
          signers: z
            .record(z.string().max(64), signer)
            .meta({ description: 'The signer of each role of the template, by role name' }),
          values: z
            .record(z.string().max(64), z.union([z.string().max(1000), z.boolean()]))
            .optional()
            .meta({ description: 'Prefilled values by field id' }),
        }),
      )
      .min(1, 'rows: at least one row is needed')
      .max(MAX_ROWS, `rows: at most ${MAX_ROWS} rows`),
  })
  .meta({ id: 'BulkUpload' });

const rowResult = z
  .object({
    row: z.int().meta({ description: 'The row’s position in the upload, from 0 (CSV: line = row + 2)' }),
    status: z.enum(['pending', 'created', 'failed', 'not_sent']),
    reason: z.string().optional().meta({ description: 'Why the row failed or was not sent' }),
    transaction_id: z.int().optional(),
    reference: z.string().optional(),
  })
  .meta({ id: 'BulkRowResult' });

export const bulkJobSchema = z
  .object({
    id: z.string(),
    template_id: z.string(),
    state: z.enum(['running', 'completed']),
    test: z.boolean(),
    rows: z.int(),
    pending: z.int(),
    created: z.int(),
    failed: z.int(),
    not_sent: z.int().meta({ description: 'Rows not sent because the quota and the credits ran out' }),
    created_at: z.string(),
    completed_at: z.string().nullable(),
    results: z.array(rowResult).optional().meta({ description: 'Each row’s outcome (not in lists)' }),
  })
  .meta({ id: 'BulkJob' });
