import { transactionTemplatesV1 } from '@signet/proto';
import type { ServiceClient } from '@signet/kit';
import type { Caller } from '../../context.js';
import { badRequest } from '../../errors.js';
import type { FileSink, UploadForm } from '../../upload/upload-bridge.js';
import { fieldsSchema, rolesSchema } from './templates.schemas.js';

type Chunk = transactionTemplatesV1.CreateTemplateChunk;
type Client = ServiceClient<transactionTemplatesV1.TemplateServiceClient>;

const MAX_DOCUMENT_BYTES = 200 * 1024 * 1024;
const UPLOAD_DEADLINE_MS = 15 * 60 * 1000;
const FORWARD_CHUNK = 256 * 1024;
const TEXT_FIELDS = new Set(['name', 'roles', 'fields']);
const PDF = Buffer.from('%PDF-');

/** A JSON text field of the form, parsed and its shape checked (the service checks the values). */
function jsonField<T>(
  name: string,
  text: string,
  schema: { safeParse(v: unknown): { success: boolean; data?: T; error?: unknown } },
): T {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw badRequest(`${name}: is not valid JSON`);
  }
  const r = schema.safeParse(v);
  if (!r.success) {
    const issue = (r.error as { issues?: { path: PropertyKey[]; message: string }[] }).issues?.[0];
    const at = issue?.path.length ? `${name}[${issue.path.map(String).join('].')}` : name;
    throw badRequest(`${at.replace(/\]$/, '')}: ${issue?.message ?? 'is not valid'}`);
  }
  return r.data as T;
}

/**
 * POST /api/templates as a form of the upload bridge, onto CreateTemplate: `begin`, the document's
 * bytes as they arrive (checked a PDF by its first bytes), then name, roles and fields last.
 */
export function templateForm(client: Client, caller: Caller): UploadForm<Chunk, transactionTemplatesV1.Template> {
  const fields: Record<string, string> = {};
  const seen = new Set<string>();
  let documentName = '';
  return {
    limits: { fileSize: MAX_DOCUMENT_BYTES + 1, files: 2, fields: 6, fieldSize: 64 * 1024, parts: 8, headerPairs: 50 },
    details: {
      unparsable: 'the body must be multipart/form-data with a boundary',
      malformed: 'the multipart body is malformed',
      partsLimit: 'too many parts in the body',
      filesLimit: 'only one file, the document, is accepted',
      fieldsLimit: 'too many fields in the body',
    },
    field(name, value, info) {
      if (!TEXT_FIELDS.has(name)) throw badRequest(`${name}: is not a known field (name, roles, fields, document)`);
      if (seen.has(name)) throw badRequest(`${name}: given more than once`);
      if (info.valueTruncated) throw badRequest(`${name}: is too long`);
      seen.add(name);
      fields[name] = value;
    },
    file(name, info) {
      if (name !== 'document') throw badRequest(`${name}: is not a known file field (document)`);
      if (seen.has(name)) throw badRequest(`${name}: given more than once`);
      seen.add(name);
      documentName = (info.filename ?? '').normalize('NFC');
      return documentSink();
    },
    open: () =>
      client.clientStream(transactionTemplatesV1.TemplateServiceService.createTemplate, { deadlineMs: UPLOAD_DEADLINE_MS }),
    begin: () => ({ part: { $case: 'begin', value: { ownerId: caller.ownerId, test: caller.mode === 'test' } } }),
    end() {
      if (fields.name === undefined) throw badRequest('name: is required');
      if (fields.roles === undefined) throw badRequest('roles: is required');
      if (!seen.has('document')) throw badRequest('document: is required');
      const roles = jsonField('roles', fields.roles, rolesSchema);
      if (fields.fields !== undefined && fields.fields.trim()) jsonField('fields', fields.fields, fieldsSchema);
      return [
        {
          part: {
            $case: 'spec',
            value: {
              name: fields.name,
              roles: roles.map((r) => ({
                name: r.name,
                order: r.order ?? 1,
                verification: r.verification ?? '',
                webauthn: r.webauthn ?? false,
                requiredAssurance: r.required_assurance ?? '',
              })),
              fieldsJson: fields.fields ?? '',
              documentName,
            },
          },
        },
      ];
    },
  };
}

/** The document's bytes: a PDF by its first bytes, forwarded in messages of about FORWARD_CHUNK. */
function documentSink(): FileSink<Chunk> {
  let head = Buffer.alloc(0);
  let checked = false;
  let size = 0;
  let pending: Buffer[] = [];
  const take = (): Chunk[] => {
    if (!pending.length) return [];
    const data = Buffer.concat(pending);
    pending = [];
    return [{ part: { $case: 'document', value: data } }];
  };
  const notPdf = () => badRequest('document: is not a PDF (it must begin with %PDF-)');
  return {
    tooLarge: 'document: must be at most 200 MB',
    data(chunk) {
      size += chunk.length;
      if (!checked) {
        head = Buffer.concat([head, chunk]).subarray(0, PDF.length);
        const n = Math.min(head.length, PDF.length);
        if (!head.subarray(0, n).equals(PDF.subarray(0, n))) throw notPdf();
        checked = n === PDF.length;
      }
      pending.push(chunk);
      return pending.reduce((a, b) => a + b.length, 0) >= FORWARD_CHUNK ? take() : [];
    },
    end() {
      if (size === 0) throw badRequest('document: is empty');
      if (!checked) throw notPdf();
      return take();
    },
  };
}
