import { invalid } from '@signet/kit';
import { looksLikePdf, MAX_DOCUMENT_BYTES } from '../domain/creation.js';
import { documentTooLarge, fieldInvalid } from '../domain/errors.js';
import {
  checkRoles,
  checkTemplateName,
  parseJsonText,
  parseTemplateFields,
  type TemplateRecord,
  type TemplateRole,
} from '../domain/template.js';
import type { DocumentUpload } from '../store/object.store.js';
import { newTemplateId } from '../store/template.repository.js';
import { storeSealableDocument } from './store-sealable-document.js';
import { placeOnDocument, type TemplateDeps, type TemplateOwner } from './template-deps.js';

/** What a template is made of besides its document. */
export type TemplateSpec = { name: string; roles: TemplateRole[]; fieldsJson: string; documentName: string };
/** One message of the CreateTemplate stream, in arrival order: begin, the document's bytes, then the spec. */
export type TemplatePart =
  { kind: 'begin'; who: TemplateOwner } | { kind: 'document'; bytes: Buffer } | { kind: 'spec'; spec: TemplateSpec };

/**
 * Creates a template from its upload: the document streams into object storage as it arrives (a PDF
 * by its first bytes, at most 200 MB); once the spec (last) is read, the name, roles and fields are
 * checked, the document is kept only if the ledger could seal it, and the fields are placed on it.
 * Any refusal (400 naming the field) or `isCancelled()` removes what was stored.
 */
export async function createTemplate(
  deps: TemplateDeps,
  parts: AsyncIterable<TemplatePart>,
  isCancelled: () => boolean,
): Promise<TemplateRecord> {
  let upload: DocumentUpload | undefined;
  let stored: { key: string } | undefined;
  try {
    const { who, spec, doc, head } = await readTemplateUpload(deps, parts, (d) => (upload = d));
    if (isCancelled()) throw invalid('cancelled by the client');
    const name = checkTemplateName(spec.name);
    const roles = checkRoles(spec.roles);
    const { kept, specs } = parseTemplateFields(parseJsonText(spec.fieldsJson, 'fields'), roles);
    if (!doc)
      throw head.length
        ? fieldInvalid('document', 'is not a PDF (it must begin with %PDF-)')
        : fieldInvalid('document', 'is required');
    const document = await storeSealableDocument(
      { objects: deps.objects, refused: (reason) => deps.tm.documentsRefused.inc({ reason }) },
      doc,
    );
    stored = document;
    const pages = await placeOnDocument(await deps.objects.readDocument(document.key), specs);
    if (isCancelled()) throw invalid('cancelled by the client');
    const now = deps.clock();
    const rec: TemplateRecord = {
      _id: newTemplateId(now),
      owner_id: who.ownerId,
      test: who.test,
      name,
      roles,
      fields: kept,
      document_key: document.key,
      document_sha256: document.sha256,
      document_size: document.size,
      document_name: spec.documentName.trim().normalize('NFC').slice(0, 200) || 'document.pdf',
      pages,
      created_at: now,
      updated_at: now,
    };
    await deps.templates.insert(rec);
    deps.tm.templates.inc({ action: 'create', outcome: 'ok' });
    return rec;
  } catch (err) {
    if (stored) await deps.objects.removeDocument(stored.key);
    else await upload?.abort().catch(() => undefined);
    deps.tm.templates.inc({ action: 'create', outcome: outcomeOf(err) });
    throw err;
  }
}

export const outcomeOf = (err: unknown) => {
  const kind = (err as { kind?: string }).kind;
  return kind === 'invalid_argument' ? 'invalid' : kind === 'not_found' ? 'not_found' : 'error';
};

/** Reads the stream: begin first, the document's chunks (contiguous) into storage, the spec last. */
async function readTemplateUpload(
  deps: Pick<TemplateDeps, 'objects'>,
  parts: AsyncIterable<TemplatePart>,
  started: (doc: DocumentUpload) => void,
) {
  let who: TemplateOwner | undefined;
  let spec: TemplateSpec | undefined;
  let doc: DocumentUpload | undefined;
  let head = Buffer.alloc(0);
  for await (const part of parts) {
    if (!who && part.kind !== 'begin') throw invalid('the first message must be begin');
    if (spec) throw invalid('spec must be the last message');
    if (part.kind === 'begin') {
      if (who) throw invalid('begin sent twice');
      if (!part.who.ownerId) throw invalid('owner_id is required');
      who = part.who;
    } else if (part.kind === 'spec') spec = part.spec;
    else {
      let chunk = part.bytes;
      if (!doc) {
        head = Buffer.concat([head, chunk]);
        const pdf = looksLikePdf(head);
        if (pdf === false) throw fieldInvalid('document', 'is not a PDF (it must begin with %PDF-)');
        if (pdf === undefined) continue;
        doc = deps.objects.documents();
        started(doc);
        chunk = head;
      }
      if (doc.size + chunk.length > MAX_DOCUMENT_BYTES) throw documentTooLarge(MAX_DOCUMENT_BYTES);
      await doc.write(chunk);
    }
  }
  if (!who) throw invalid('the first message must be begin');
  if (!spec) throw invalid('spec is missing');
  return { who, spec, doc, head };
}
