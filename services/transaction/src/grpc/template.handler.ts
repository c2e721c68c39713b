import {
  status,
  type ServerReadableStream,
  type ServerWritableStream,
  type sendUnaryData,
  type ServiceError,
} from '@grpc/grpc-js';
import { nulRefusal, toServiceError, type Logger } from '@signet/kit';
import type { transactionTemplatesV1, transactionV1 } from '@signet/proto';
import type { TemplateRecord } from '../domain/template.js';
import { createFromTemplate, type FromTemplateDeps, type FromTemplatePart } from '../usecases/create-from-template.js';
import { createTemplate, type TemplatePart } from '../usecases/create-template.js';
import { deleteTemplate } from '../usecases/delete-template.js';
import { getTemplate } from '../usecases/get-template.js';
import { getTemplateDocument } from '../usecases/get-template-document.js';
import { listTemplates } from '../usecases/list-templates.js';
import type { TemplateDeps } from '../usecases/template-deps.js';
import { updateTemplate } from '../usecases/update-template.js';

type Tpl = transactionTemplatesV1.Template;
const asBuffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/** A template as the API shows it. */
export function toTemplate(rec: TemplateRecord): Tpl {
  return {
    id: rec._id,
    name: rec.name,
    roles: rec.roles.map((r) => ({
      name: r.name,
      order: r.order,
      verification: r.verification,
      webauthn: r.webauthn,
      requiredAssurance: r.required_assurance,
    })),
    fieldsJson: JSON.stringify(rec.fields),
    documentName: rec.document_name,
    documentSha256: rec.document_sha256,
    documentSize: rec.document_size,
    pages: rec.pages.map((p) => ({ width: p.width, height: p.height })),
    createdAt: new Date(rec.created_at).toISOString(),
    updatedAt: new Date(rec.updated_at).toISOString(),
    test: !!rec.test,
  };
}

const rolesOf = (roles: transactionTemplatesV1.TemplateRole[]) =>
  roles.map((r) => ({
    name: r.name,
    order: r.order,
    verification: r.verification,
    webauthn: r.webauthn,
    required_assurance: r.requiredAssurance,
  }));

async function* templateParts(call: AsyncIterable<transactionTemplatesV1.CreateTemplateChunk>): AsyncIterable<TemplatePart> {
  for await (const { part } of call) {
    if (!part) continue;
    const refused = nulRefusal(part.value);
    if (refused) throw refused;
    if (part.$case === 'begin') yield { kind: 'begin', who: { ownerId: part.value.ownerId, test: part.value.test } };
    else if (part.$case === 'document') yield { kind: 'document', bytes: asBuffer(part.value) };
    else {
      const s = part.value;
      yield {
        kind: 'spec',
        spec: { name: s.name, roles: rolesOf(s.roles), fieldsJson: s.fieldsJson, documentName: s.documentName },
      };
    }
  }
}

async function* fromTemplateParts(
  call: AsyncIterable<transactionTemplatesV1.CreateFromTemplateChunk>,
): AsyncIterable<FromTemplatePart> {
  for await (const { part } of call) {
    if (!part) continue;
    const refused = nulRefusal(part.value);
    if (refused) throw refused;
    if (part.$case === 'signerReference') yield { kind: 'photo', signer: part.value.signer, bytes: asBuffer(part.value.data) };
    else {
      const v = part.value;
      const b = v.begin;
      yield {
        kind: 'begin',
        req: {
          begin: {
            ownerId: b?.ownerId ?? '',
            orgName: b?.orgName ?? '',
            idempotencyKey: b?.idempotencyKey ?? '',
            test: b?.test ?? false,
            senderEmail: b?.senderEmail ?? '',
            ...(b?.createdBy ? { createdBy: b.createdBy } : {}),
          },
          templateId: v.templateId,
          signers: v.signers.map((s) => ({ role: s.role, name: s.name, email: s.email })),
          valuesJson: v.valuesJson,
          lifecycle: {
            expiresAt: v.expiresAt,
            reminderFirstAfterSeconds: v.reminderFirstAfterSeconds,
            reminderEverySeconds: v.reminderEverySeconds,
            reminderMax: v.reminderMax,
          },
          documentName: v.documentName,
        },
      };
    }
  }
}

/** Runs a client-streaming use case: a cancelled call is told to the use case, a failure answered as its status. */
function streamed<Req, Res, Out>(
  logger: Logger,
  run: (call: ServerReadableStream<Req, Res>, isCancelled: () => boolean) => Promise<Out>,
  map: (out: Out) => Res,
) {
  return (call: ServerReadableStream<Req, Res>, callback: sendUnaryData<Res>) => {
    let cancelled = false;
    call.on('cancelled', () => {
      cancelled = true;
      call.destroy(new Error('cancelled by the client'));
    });
    run(call, () => cancelled).then(
      (out) => callback(null, map(out)),
      (err: unknown) => {
        const se = toServiceError(err);
        if ((se.code ?? status.INTERNAL) === status.INTERNAL) logger.error({ err }, 'template call failed');
        callback(se as ServiceError, null);
      },
    );
  };
}

/** Messages of the document stream (well under the 8 MB message limit). */
const DOCUMENT_CHUNK = 64 * 1024;

/** GetTemplateDocument (server streaming): a header (name, size), then the PDF in chunks, honouring backpressure. */
function templateDocumentHandler(deps: TemplateDeps & { logger: Logger }) {
  return async (call: ServerWritableStream<transactionTemplatesV1.TemplateRequest, transactionV1.DocumentChunk>) => {
    let cancelled = false;
    call.on('cancelled', () => {
      cancelled = true;
    });
    try {
      const req = call.request;
      const doc = await getTemplateDocument(deps, { ownerId: req.ownerId, test: req.test }, req.id);
      call.write({ data: Buffer.alloc(0), name: doc.name, size: doc.bytes.length });
      for (let o = 0; o < doc.bytes.length && !cancelled; o += DOCUMENT_CHUNK) {
        const data = doc.bytes.subarray(o, o + DOCUMENT_CHUNK);
        if (!call.write({ data, name: '', size: 0 })) await new Promise((r) => call.once('drain', r));
      }
      call.end();
    } catch (err) {
      const se = toServiceError(err);
      if ((se.code ?? status.INTERNAL) === status.INTERNAL) deps.logger.error({ err }, 'template document stream failed');
      call.emit('error', se);
    }
  };
}

/** The TemplateService handlers (usecases/*-template.ts). */
export function templateHandlers(deps: TemplateDeps & FromTemplateDeps) {
  const who = (r: { ownerId: string; test: boolean }) => ({ ownerId: r.ownerId, test: r.test });
  return {
    createTemplate: streamed(deps.logger, (call, c) => createTemplate(deps, templateParts(call), c), toTemplate),
    createFromTemplate: streamed(
      deps.logger,
      (call, c) => createFromTemplate(deps, fromTemplateParts(call), c),
      (r): transactionV1.CreateTransactionResult => r,
    ),
    async listTemplates(req: transactionTemplatesV1.ListTemplatesRequest): Promise<transactionTemplatesV1.ListTemplatesResponse> {
      const { items, nextCursor } = await listTemplates(deps, who(req), req.limit, req.cursor);
      return { items: items.map(toTemplate), nextCursor };
    },
    getTemplateDocument: templateDocumentHandler(deps),
    async getTemplate(req: transactionTemplatesV1.TemplateRequest): Promise<Tpl> {
      return toTemplate(await getTemplate(deps, who(req), req.id));
    },
    async updateTemplate(req: transactionTemplatesV1.UpdateTemplateRequest): Promise<Tpl> {
      const rec = await updateTemplate(deps, who(req), req.id, {
        ...(req.hasName ? { name: req.name } : {}),
        ...(req.hasRoles ? { roles: rolesOf(req.roles) } : {}),
        ...(req.hasFields ? { fieldsJson: req.fieldsJson } : {}),
      });
      return toTemplate(rec);
    },
    async deleteTemplate(req: transactionTemplatesV1.TemplateRequest): Promise<transactionTemplatesV1.DeleteTemplateResponse> {
      await deleteTemplate(deps, who(req), req.id);
      return { deleted: true };
    },
  };
}
