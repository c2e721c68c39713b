import { invalid } from '@signet/kit';
import { checkReferenceImage } from '../domain/creation.js';
import { fieldInvalid } from '../domain/errors.js';
import { photoField, type PhotoSlot } from '../domain/photos.js';
import {
  prepareCreation,
  type CreateDeps,
  type CreationRequest,
  type PreparedCreation,
  type StoredDocument,
  type StoredRefs,
} from './create-from-stored.js';
import { readUpload, type Cleanups, type CreationPart } from './creation-upload.js';
import { storeSealableDocument } from './store-sealable-document.js';

/** An upload received: its request (checked), the stored document and the stored reference photos. */
export type ReceivedUpload = {
  request: CreationRequest;
  prepared: PreparedCreation;
  document: StoredDocument;
  refs: StoredRefs;
};

/**
 * Receives a creation upload (creation-upload.ts reads the stream) and stores its objects: the
 * request is checked first (prepareCreation: nothing stored for a bad field), the document is stored
 * only if the ledger will be able to seal it (a PDF pdf-lib parses), each reference photo is decoded,
 * stored and shown to biometrics, which must find exactly one face in it. Everything stored is pushed
 * on `cleanups` for the caller to remove on a later failure; `isCancelled()` stops it between steps.
 */
export async function receiveUpload(
  deps: CreateDeps,
  parts: AsyncIterable<CreationPart>,
  isCancelled: () => boolean,
  cleanups: Cleanups,
): Promise<ReceivedUpload> {
  const { begin, rawFields, doc, docHead, photos } = await readUpload(deps.objects, parts, cleanups);
  if (isCancelled()) throw invalid('cancelled by the client');
  const request: CreationRequest = { begin, fields: rawFields };
  const prepared = await prepareCreation(deps, request, new Set(photos.keys()));
  if (!doc)
    throw docHead.length
      ? fieldInvalid('document', 'is not a PDF (it must begin with %PDF-)')
      : fieldInvalid('document', 'is required');
  const legacy = rawFields.signers.length === 0;
  if (legacy && !photos.has('reference')) throw fieldInvalid('reference', 'is required');
  const describe = (slot: PhotoSlot) => {
    if (slot === 'reference') return 'reference';
    return `signers[${slot}] (${prepared.fields.parties[slot]!.email}): ${photoField(slot)}`;
  };
  const images = [...photos].map(([slot, buf]) => ({ slot, buf, image: checkReferenceImage(buf, describe(slot)) }));
  // Parsed as the ledger's sealer will parse it: what it could never seal is refused here (400).
  const document = await storeSealableDocument(
    { objects: deps.objects, refused: (reason) => deps.tm.documentsRefused.inc({ reason }) },
    doc,
  );
  const refs: StoredRefs = new Map();
  for (const { slot, buf, image } of images) {
    const ref = await deps.objects.putReference(buf, image.kind === 'png' ? 'image/png' : 'image/jpeg');
    cleanups.push(() => deps.objects.removeReference(ref.key));
    refs.set(slot === 'reference' ? 0 : slot, ref);
    if (isCancelled()) throw invalid('cancelled by the client');
    await checkOneFace(deps, ref.key, describe(slot));
  }
  if (isCancelled()) throw invalid('cancelled by the client');
  return { request, prepared, document, refs };
}

/**
 * A reference photo must show exactly one face (issue 18): biometrics counts them with the models
 * and limits its analysis applies to a reference, so a group photo is refused here rather than
 * failing every capture at the end. Its own errors pass through (an undecodable photo is a 400, an
 * unavailable biometrics service a 503).
 */
export async function checkOneFace(deps: Pick<CreateDeps, 'cfg' | 'biometrics'>, key: string, field: string): Promise<void> {
  if (deps.cfg.REFERENCE_FACE_CHECK === 'off') return;
  // A first detection on a cold worker can take a few seconds.
  const { faces } = await deps.biometrics.countFaces({ referenceKey: key }, { deadlineMs: 30_000 });
  if (faces === 1) return;
  throw fieldInvalid(
    field,
    faces === 0
      ? 'the reference photo shows no face; it must show exactly one'
      : 'the reference photo shows more than one face; it must show exactly one',
  );
}
