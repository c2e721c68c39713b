import type { Timers } from '../domain/lifecycle.js';
import { invalid } from '@signet/kit';
import { looksLikePdf, MAX_DOCUMENT_BYTES, type RawCreationFields } from '../domain/creation.js';
import { documentTooLarge, fieldInvalid } from '../domain/errors.js';
import { PhotoCollector, type PhotoSlot } from '../domain/photos.js';
import type { DocumentUpload, ObjectStore } from '../store/object.store.js';

/** `test`: made with a test-mode API key — free (billing is not asked), marked, never listed with live data. */
/** `senderEmail`: where sender notifications go; `timers`: the lifecycle timers, set once the fields are read. */
export type Begin = {
  ownerId: string;
  orgName: string;
  idempotencyKey: string;
  test?: boolean;
  senderEmail?: string;
  /** The member of the organisation who creates it (issue 34); absent: the owner, or unknown. */
  createdBy?: string;
  timers?: Timers;
  /** The billing consumption's id (a bulk row's, derived from its job and row, so a resumed row never consumes twice); absent: a fresh one. */
  consumptionId?: string;
};
/** One message of the creation stream, in arrival order: begin, document and photo bytes, then the fields. */
export type CreationPart =
  | { kind: 'begin'; begin: Begin }
  | { kind: 'document'; bytes: Buffer }
  | { kind: 'reference'; bytes: Buffer }
  | { kind: 'signer_reference'; signer: number; bytes: Buffer }
  | { kind: 'fields'; fields: RawCreationFields };
export type Cleanups = (() => Promise<void>)[];

export type Upload = {
  begin: Begin;
  rawFields: RawCreationFields;
  /** Undefined when no PDF began (`docHead` says whether something else was sent). */
  doc: DocumentUpload | undefined;
  docHead: Buffer;
  photos: Map<PhotoSlot, Buffer>;
};

/**
 * Reads the creation stream: the document streams into object storage under a fresh key (decided a
 * PDF on its first bytes, before anything is stored; its abort is pushed on `cleanups`), the reference
 * photos are held in memory (PhotoCollector's limits). Stream-order errors are INVALID_ARGUMENT.
 */
export async function readUpload(
  objects: Pick<ObjectStore, 'documents'>,
  parts: AsyncIterable<CreationPart>,
  cleanups: Cleanups,
): Promise<Upload> {
  let begin: Begin | undefined;
  let rawFields: RawCreationFields | undefined;
  let doc: DocumentUpload | undefined;
  let docHead = Buffer.alloc(0);
  let docDone = false;
  let lastPart: string | undefined;
  const photos = new PhotoCollector();
  for await (const part of parts) {
    if (!begin && part.kind !== 'begin') throw invalid('the first message must be begin');
    if (rawFields) throw invalid('fields must be the last message');
    if (lastPart === 'document' && part.kind !== 'document') docDone = true;
    const wasPhoto = lastPart === 'reference' || lastPart === 'signer_reference';
    switch (part.kind) {
      case 'begin':
        if (begin) throw invalid('begin sent twice');
        if (!part.begin.ownerId) throw invalid('owner_id is required');
        begin = part.begin;
        break;
      case 'document': {
        if (docDone) throw fieldInvalid('document', 'sent more than once');
        let chunk = part.bytes;
        if (!doc) {
          // Decide on the first bytes, before anything is stored.
          docHead = Buffer.concat([docHead, chunk]);
          const pdf = looksLikePdf(docHead);
          if (pdf === false) throw fieldInvalid('document', 'is not a PDF (it must begin with %PDF-)');
          if (pdf === undefined) break;
          doc = objects.documents();
          const d = doc;
          cleanups.push(() => d.abort());
          chunk = docHead;
        }
        if (doc.size + chunk.length > MAX_DOCUMENT_BYTES) throw documentTooLarge(MAX_DOCUMENT_BYTES);
        await doc.write(chunk);
        break;
      }
      case 'reference':
        photos.add('reference', part.bytes, wasPhoto);
        break;
      case 'signer_reference':
        if (!Number.isInteger(part.signer) || part.signer < 0 || part.signer > 99)
          throw invalid('signer_reference.signer is out of range');
        photos.add(part.signer, part.bytes, wasPhoto);
        break;
      case 'fields':
        rawFields = part.fields;
        break;
    }
    lastPart = part.kind;
  }
  if (!begin) throw invalid('the first message must be begin');
  if (!rawFields) throw invalid('fields are missing');
  return { begin, rawFields, doc, docHead, photos: photos.photos() };
}
