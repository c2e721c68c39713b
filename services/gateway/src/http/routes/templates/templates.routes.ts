import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { transactionTemplatesV1 } from '@signet/proto';
import { callerOf, isTestMode, requireCaller } from '../../auth.js';
import type { GatewayContext, RouteModule } from '../../context.js';
import { badRequest, HttpError } from '../../errors.js';
import { defineRoute, errorResponses, HEADERS, mountRoutes } from '../../route.js';
import { pipePdfStream } from '../../pdf-stream.js';
import { bridgeUpload } from '../../upload/upload-bridge.js';
import { binary } from '../sign/sign.schemas.js';
import { createdSchema } from '../transactions/creation.schemas.js';
import { testCreationLimit } from '../transactions/test-mode.routes.js';
import { templateForm } from './template.upload.js';
import {
  fromTemplateBody,
  fromTemplateHeaders,
  templateForm as templateFormSchema,
  templateListQuery,
  templateListSchema,
  templateParams,
  templateSchema,
  updateBody,
} from './templates.schemas.js';

const TAGS = ['Templates'];
const noSuchTemplate = () => new HttpError(404, 'no such template');
/** Photos travel in messages of at most this size (the service's limit is 8 MB a message). */
const PHOTO_CHUNK = 1024 * 1024;
const DEADLINE_MS = 2 * 60 * 1000;

type TemplateJson = z.input<typeof templateSchema>;
/** A template as the API shows it. */
export function templateJson(t: transactionTemplatesV1.Template): TemplateJson {
  return {
    id: t.id,
    name: t.name,
    roles: t.roles.map((r) => ({
      name: r.name,
      order: r.order,
      verification: r.verification || 'face_match',
      webauthn: r.webauthn,
      required_assurance: r.requiredAssurance || 'live',
    })),
    fields: t.fieldsJson ? (JSON.parse(t.fieldsJson) as TemplateJson['fields']) : [],
    document_name: t.documentName,
    document_sha256: t.documentSha256,
    document_size: Number(t.documentSize),
    pages: t.pages,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
    test: t.test,
  };
}

const multipartOnly = (req: Request, _res: Response, next: NextFunction) => {
  if (!req.is('multipart/form-data')) throw badRequest('the body must be multipart/form-data');
  next();
};

type Shared = {
  ctx: GatewayContext;
  client: () => NonNullable<GatewayContext['templates']>;
  auth: express.RequestHandler;
  common: { tags: string[]; security: 'caller' };
  noStore: { 'Cache-Control': typeof HEADERS.cacheControl };
  who: (res: Response) => { ownerId: string; test: boolean };
};

/**
 * /api/templates*: the caller's templates (a document with its fields and signer roles, issue 33) —
 * create (multipart, streamed), list, get, change, delete — and a transaction from one. Another
 * owner's template, and one of the other mode, is 404.
 */
export function templatesRoutes(ctx: GatewayContext): RouteModule {
  const shared: Shared = {
    ctx,
    client: () => {
      if (!ctx.templates) throw new HttpError(503, 'templates are not available');
      return ctx.templates;
    },
    auth: requireCaller(ctx),
    common: { tags: TAGS, security: 'caller' as const },
    noStore: { 'Cache-Control': HEADERS.cacheControl },
    who: (res) => ({ ownerId: callerOf(res).ownerId, test: isTestMode(res) }),
  };
  const routes = [
    createRoute(shared),
    listRoute(shared),
    getRoute(shared),
    documentRoute(shared),
    updateRoute(shared),
    removeRoute(shared),
    fromTemplateRoute(shared),
  ];
  const router = Router();
  mountRoutes(router, routes, { validateResponses: ctx.validateResponses });
  return { router, routes };
}

/** POST /api/templates */
function createRoute({ client, auth, common, noStore }: Shared) {
  return defineRoute({
    ...common,
    method: 'post',
    path: '/api/templates',
    operationId: 'createTemplate',
    summary: 'Create a template',
    description:
      'multipart/form-data: the PDF (`document`), `name`, `roles` (JSON) and `fields` (JSON, each naming its role). The fields are checked ' +
      'as a transaction’s and placed on the document; any refusal is a 400 naming the field, with nothing stored.',
    use: [auth, multipartOnly],
    rawBody: { content: { 'multipart/form-data': templateFormSchema } },
    responses: {
      201: { description: 'Created', body: templateSchema, headers: noStore },
      ...errorResponses(400, 401, 413),
    },
    async handle(_input, req, res) {
      const t = await bridgeUpload(req, templateForm(client(), callerOf(res)));
      return { status: 201 as const, body: templateJson(t) };
    },
  });
}

/** GET /api/templates */
function listRoute({ client, auth, common, noStore, who }: Shared) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/templates',
    operationId: 'listTemplates',
    summary: "The caller's templates, most recent first",
    description:
      'Paged by `cursor` (the previous page’s next_cursor). A test-mode key sees only test templates, a live key only live ones.',
    use: [auth],
    query: templateListQuery,
    responses: {
      200: { description: 'A page of templates', body: templateListSchema, headers: noStore },
      ...errorResponses(400, 401),
    },
    async handle({ query }, _req, res) {
      const r = await client().listTemplates({ ...who(res), limit: query.limit ?? 20, cursor: query.cursor ?? '' });
      return { status: 200 as const, body: { items: r.items.map(templateJson), next_cursor: r.nextCursor || null } };
    },
  });
}

/** GET /api/templates/{id} */
function getRoute({ client, auth, common, noStore, who }: Shared) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/templates/{id}',
    operationId: 'getTemplate',
    summary: 'One template',
    use: [auth],
    params: templateParams,
    invalidParams: noSuchTemplate,
    responses: {
      200: { description: 'The template', body: templateSchema, headers: noStore },
      ...errorResponses(401, 404),
    },
    async handle({ params }, _req, res) {
      return { status: 200 as const, body: templateJson(await client().getTemplate({ ...who(res), id: params.id })) };
    },
  });
}

/** GET /api/templates/{id}/document: the uploaded PDF, for the editor to render after a reload. */
function documentRoute({ client, auth, common, who }: Shared) {
  return defineRoute({
    ...common,
    method: 'get',
    path: '/api/templates/{id}/document',
    operationId: 'getTemplateDocument',
    summary: 'The template’s document (the PDF as uploaded)',
    use: [auth],
    params: templateParams,
    invalidParams: noSuchTemplate,
    responses: {
      200: {
        description: 'The document',
        content: { 'application/pdf': binary('The PDF') },
        headers: { 'Cache-Control': { description: 'private, no-store', schema: HEADERS.cacheControl.schema } },
      },
      ...errorResponses(401, 404),
    },
    async handle({ params }, _req, res) {
      const stream = client().serverStream(
        transactionTemplatesV1.TemplateServiceService.getTemplateDocument,
        { ...who(res), id: params.id },
        { deadlineMs: DEADLINE_MS },
      );
      await pipePdfStream(res, stream, {
        disposition: (first) => `inline; filename="${(first.name || 'template.pdf').replace(/[^\w .,()-]/g, '_')}"`,
        notFound: () => 'no such template',
      });
      return undefined;
    },
  });
}

/** PATCH /api/templates/{id} */
function updateRoute({ client, auth, common, noStore, who }: Shared) {
  return defineRoute({
    ...common,
    method: 'patch',
    path: '/api/templates/{id}',
    operationId: 'updateTemplate',
    summary: 'Change a template',
    description:
      'Only what is given changes (name, roles, fields: each replaces the old). The result is checked whole as at creation (the fields ' +
      'must name the roles and lie on the document without overlapping another role’s); a refusal is a 400 and changes nothing.',
    use: [auth, express.json({ limit: '256kb' })],
    params: templateParams,
    invalidParams: noSuchTemplate,
    body: updateBody,
    responses: {
      200: { description: 'The template as changed', body: templateSchema, headers: noStore },
      ...errorResponses(400, 401, 404),
    },
    async handle({ params, body }, _req, res) {
      const t = await client().updateTemplate({
        ...who(res),
        id: params.id,
        hasName: body.name !== undefined,
        name: body.name ?? '',
        hasRoles: body.roles !== undefined,
        roles: (body.roles ?? []).map((r) => ({
          name: r.name,
          order: r.order ?? 1,
          verification: r.verification ?? '',
          webauthn: r.webauthn ?? false,
          requiredAssurance: r.required_assurance ?? '',
        })),
        hasFields: body.fields !== undefined,
        fieldsJson: body.fields === undefined ? '' : JSON.stringify(body.fields),
      });
      return { status: 200 as const, body: templateJson(t) };
    },
  });
}

/** DELETE /api/templates/{id} */
function removeRoute({ client, auth, common, who }: Shared) {
  return defineRoute({
    ...common,
    method: 'delete',
    path: '/api/templates/{id}',
    operationId: 'deleteTemplate',
    summary: 'Delete a template',
    description: 'Its document is removed; transactions made from it keep their own copy.',
    use: [auth],
    params: templateParams,
    invalidParams: noSuchTemplate,
    responses: {
      204: { description: 'Deleted' },
      ...errorResponses(401, 404),
    },
    async handle({ params }, _req, res) {
      await client().deleteTemplate({ ...who(res), id: params.id });
      res.status(204).end();
      return undefined;
    },
  });
}

/** POST /api/templates/{id}/transactions */
function fromTemplateRoute({ ctx, client, auth, common, noStore }: Shared) {
  return defineRoute({
    ...common,
    method: 'post',
    path: '/api/templates/{id}/transactions',
    operationId: 'createTransactionFromTemplate',
    summary: 'Create a transaction from a template',
    description:
      'JSON (at most 40 MB): one signer per role (name, email, and for a face_match role the face photo as base64: JPEG or PNG, at most 10 MB, ' +
      'exactly one face) and prefilled `values` by field id. The transaction gets its own copy of the template’s document and its fields; ' +
      'creation is as POST /api/transactions (one signature of the quota or a credit, events, mails, Idempotency-Key). Any refusal is a 400 ' +
      'naming the signer or field, with nothing stored and no quota used.',
    use: [auth, testCreationLimit(ctx), express.json({ limit: '40mb' })],
    params: templateParams,
    invalidParams: noSuchTemplate,
    headers: fromTemplateHeaders,
    body: fromTemplateBody,
    responses: {
      201: {
        description: 'Created; the signing links are mailed to the signers of the first order',
        body: createdSchema,
        headers: {
          ...noStore,
          'Idempotent-Replayed': {
            description: 'true when this answers an earlier request with the same Idempotency-Key',
            schema: z.literal('true'),
          },
        },
      },
      ...errorResponses(400, 401, 402, 404, 409, 413, 429),
    },
    async handle({ params, body, headers }, _req, res) {
      const caller = callerOf(res);
      // Decoded and bounded before the call opens: a refusal here leaves nothing to cancel.
      const photos = body.signers.map((s, i) => {
        const bytes = s.photo ? Buffer.from(s.photo, 'base64') : undefined;
        if (bytes && bytes.length > 10 * 1024 * 1024) throw badRequest(`signers[${i}].photo: must be at most 10 MB`);
        return bytes;
      });
      const call = client().clientStream(transactionTemplatesV1.TemplateServiceService.createFromTemplate, {
        deadlineMs: DEADLINE_MS,
      });
      call.write({
        part: {
          $case: 'begin',
          value: {
            begin: {
              ownerId: caller.ownerId,
              orgName: caller.orgName,
              idempotencyKey: headers['Idempotency-Key'] ?? '',
              test: caller.mode === 'test',
              senderEmail: caller.email,
              createdBy: caller.userId,
            },
            templateId: params.id,
            signers: body.signers.map((s) => ({ role: s.role, name: s.name, email: s.email })),
            valuesJson: body.values ? JSON.stringify(body.values) : '',
            expiresAt: body.expires_at ?? '',
            reminderFirstAfterSeconds: body.reminder_first_after_seconds ?? 0,
            reminderEverySeconds: body.reminder_every_seconds ?? 0,
            // 0 asks for no reminders; the service reads -1 as none and 0 as its default.
            reminderMax: body.reminder_max === undefined ? 0 : body.reminder_max === 0 ? -1 : body.reminder_max,
            documentName: body.document_name ?? '',
          },
        },
      });
      photos.forEach((bytes, signer) => {
        if (!bytes) return;
        for (let off = 0; off < bytes.length; off += PHOTO_CHUNK)
          call.write({ part: { $case: 'signerReference', value: { signer, data: bytes.subarray(off, off + PHOTO_CHUNK) } } });
      });
      call.end();
      const r = await call.result;
      return {
        status: 201 as const,
        headers: r.replayed ? { 'Idempotent-Replayed': 'true' } : undefined,
        body: {
          id: Number(r.id),
          reference: r.reference,
          token: r.token,
          sign_url: r.signUrl,
          status: r.status,
          test: caller.mode === 'test',
        },
      };
    },
  });
}
