import express from 'express';
import { z } from 'zod';
import type { transactionV1 } from '@signet/proto';
import type { GatewayContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { defineRoute, errorResponses, type AnyRoute } from '../../route.js';
import { noStore, notValidLink, SIGN_TAGS, type SignGuard } from './sign.guard.js';
import { tokenParams } from './sign.schemas.js';

/** A drawn mark's PNG (at most 256 KB) as base64, with room for the other mark and the values. */
const FIELDS_BODY_LIMIT = '1mb';
const MAX_PNG_BASE64 = Math.ceil((256 * 1024) / 3) * 4;

const placeSchema = z.object({
  page: z.int().meta({ description: '1 = the first page' }),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});
const fieldValue = z.union([z.string(), z.boolean()]);

export const signerFieldSchema = z
  .object({
    id: z.string(),
    type: z.enum(['signature', 'initials', 'date_signed', 'full_name', 'email', 'text', 'checkbox', 'dropdown']),
    required: z.boolean(),
    readonly: z.boolean().meta({ description: 'Prefilled by the sender; the signer cannot change it' }),
    label: z.string(),
    places: z.array(placeSchema).meta({
      description: 'Where the field is: PDF points from the lower-left corner of the page as shown (crop box)',
    }),
    max_length: z.int().optional(),
    pattern: z.string().optional().meta({ description: 'RE2 syntax; the whole value must match' }),
    options: z.array(z.string()).optional(),
    value: fieldValue.nullable().meta({
      description:
        'The value so far: submitted, else prefilled, else the service’s own (date_signed, full_name, email); null: none',
    }),
    anchor: z.string().optional().meta({ description: 'The text in the PDF that placed the field' }),
  })
  .meta({ id: 'SignerField' });

export const signerFieldsSchema = z
  .object({
    fields: z.array(signerFieldSchema),
    complete: z.boolean().meta({ description: 'Every required field has a value (and the signature/initials they need)' }),
    submitted_at: z.string().nullable().meta({ format: 'date-time' }),
    signature: z.enum(['drawn', 'typed']).nullable(),
    initials: z.enum(['drawn', 'typed']).nullable(),
  })
  .meta({ id: 'SignerFields' });

const markSchema = z
  .object({
    png: z.string().max(MAX_PNG_BASE64, 'the drawing must be at most 256 KB').optional().meta({
      description: 'A drawn mark: PNG (base64), 16×8 to 1200×600 pixels, at most 256 KB; re-encoded by the service',
    }),
    typed: z.string().max(400).optional().meta({ description: 'A typed mark: at most 100 characters' }),
  })
  .meta({ id: 'SignatureMark' });

export const submitFieldsBody = z.object({
  values: z.record(z.string().max(64), fieldValue).default({}).meta({
    description: 'Values by field id: text and dropdown take a string, checkbox true or false',
  }),
  signature: markSchema.optional().meta({ description: 'The signature every signature field of this signer shows' }),
  initials: markSchema.optional().meta({ description: 'The initials every initials field of this signer shows' }),
});

function markOf(m: z.infer<typeof markSchema> | undefined, name: string): transactionV1.SignatureMark | undefined {
  if (!m) return undefined;
  const png = m.png ? Buffer.from(m.png, 'base64') : Buffer.alloc(0);
  if (m.png && png.toString('base64').replace(/=+$/, '') !== m.png.replace(/\s/g, '').replace(/=+$/, ''))
    throw badRequest(`${name}: png must be base64`);
  return { png, typed: m.typed ?? '' };
}

function fieldsJson(f: transactionV1.SignerFields): z.infer<typeof signerFieldsSchema> {
  return {
    fields: f.fields.map((x) => ({
      id: x.id,
      type: x.type as z.infer<typeof signerFieldSchema>['type'],
      required: x.required,
      readonly: x.readonly,
      label: x.label,
      places: x.places.map((p) => ({ page: p.page, x: p.x, y: p.y, width: p.width, height: p.height })),
      ...(x.type === 'text' ? { max_length: x.maxLength } : {}),
      ...(x.pattern ? { pattern: x.pattern } : {}),
      ...(x.type === 'dropdown' ? { options: x.options } : {}),
      value: x.valueJson ? (JSON.parse(x.valueJson) as string | boolean) : null,
      ...(x.anchor ? { anchor: x.anchor } : {}),
    })),
    complete: f.complete,
    submitted_at: f.submittedAt || null,
    signature: (f.signature || null) as 'drawn' | 'typed' | null,
    initials: (f.initials || null) as 'drawn' | 'typed' | null,
  };
}

/**
 * /api/sign/{token}/fields (issue 33): the fields this signer fills on the document, and their
 * submission before the ceremony — checked again by the transaction service, kept on the signer.
 */
export function fieldsRoutes(ctx: GatewayContext, sign: SignGuard): AnyRoute[] {
  const common = { tags: SIGN_TAGS, security: 'public' as const, params: tokenParams, invalidParams: notValidLink };
  const get = defineRoute({
    ...common,
    method: 'get',
    path: '/api/sign/{token}/fields',
    operationId: 'getSigningFields',
    summary: 'The fields this signer fills, with their places and values',
    use: [sign.guard],
    responses: {
      200: { description: 'The fields', body: signerFieldsSchema, headers: noStore },
      ...errorResponses(400, 404, 429),
    },
    async handle(_input, req) {
      return { status: 200 as const, body: fieldsJson(await ctx.transaction.getSignerFields({ token: sign.tokenOf(req) })) };
    },
  });
  const put = defineRoute({
    ...common,
    method: 'put',
    path: '/api/sign/{token}/fields',
    operationId: 'submitSigningFields',
    summary: 'Fill this signer’s fields',
    description:
      'All values at once, replacing earlier ones: each is checked (type, length, pattern, options), every required field must be filled and ' +
      'a drawn signature is a PNG the service decodes and re-encodes. Before the recording only: once a capture was accepted, 409.',
    use: [sign.guard, express.json({ limit: FIELDS_BODY_LIMIT })],
    body: submitFieldsBody,
    responses: {
      200: { description: 'Kept; the fields with their values', body: signerFieldsSchema, headers: noStore },
      ...errorResponses(400, 404, 409, 413, 429),
    },
    async handle({ body }, req) {
      const f = await ctx.transaction.submitSignerFields({
        token: sign.tokenOf(req),
        valuesJson: JSON.stringify(body.values ?? {}),
        signature: markOf(body.signature, 'signature'),
        initials: markOf(body.initials, 'initials'),
      });
      return { status: 200 as const, body: fieldsJson(f) };
    },
  });
  return [get, put];
}
