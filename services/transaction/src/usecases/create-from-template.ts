import { invalid } from '@signet/kit';
import { checkReferenceImage } from '../domain/creation.js';
import type { LifecycleRaw } from '../domain/lifecycle.js';
import { PhotoCollector } from '../domain/photos.js';
import { partiesAndFieldsOf, parseJsonText, type TemplateSignerSpec } from '../domain/template.js';
import type { ObjectStore } from '../store/object.store.js';
import type { TemplateRepository } from '../store/template.repository.js';
import type { TransactionMetrics } from '../metrics.js';
import {
  createFromStored,
  prepareCreation,
  type CreateDeps,
  type CreationRequest,
  type CreationResult,
  type StoredRefs,
} from './create-from-stored.js';
import type { Begin, Cleanups } from './creation-upload.js';
import { outcomeOf } from './create-template.js';
import { checkOneFace } from './receive-upload.js';
import { findTemplate } from './template-deps.js';

/** A transaction asked of a template: who asks, the template, a signer per role, prefilled values. */
export type FromTemplateRequest = {
  begin: Begin;
  templateId: string;
  signers: TemplateSignerSpec[];
  valuesJson: string;
  lifecycle: LifecycleRaw;
  documentName: string;
};
/** One message of the CreateFromTemplate stream: the request first, then photo chunks by role index. */
/**
 * A photo chunk names whose photo it is by `signer` (the position in the request's signers list: the
 * API's form) or by `role` (the role's position in the template's roles: bulk send's form).
 */
export type FromTemplatePart =
  { kind: 'begin'; req: FromTemplateRequest } | ({ kind: 'photo'; bytes: Buffer } & ({ signer: number } | { role: number }));

export type FromTemplateDeps = CreateDeps & {
  templates: TemplateRepository;
  objects: Pick<ObjectStore, 'copyDocument'>;
  tm: Pick<TransactionMetrics, 'templates'>;
};

/**
 * Creates a transaction from a template: the template's roles become the signers (named in the
 * request, each face-match signer with a photo), its fields their fields with the request's values
 * prefilled, and the transaction gets its own copy of the template's document. Everything is checked
 * before anything is stored (the request as a creation's, the photos' images); then each photo is
 * stored and must show one face, and create-from-stored makes the transaction (Idempotency-Key,
 * quota, record, events). Any failure, a replay, or `isCancelled()` removes what this call stored.
 */
export async function createFromTemplate(
  deps: FromTemplateDeps,
  parts: AsyncIterable<FromTemplatePart>,
  isCancelled: () => boolean,
): Promise<CreationResult> {
  const cleanups: Cleanups = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  };
  try {
    const { req, photos: given, byRole } = await readParts(parts);
    const tpl = await findTemplate(deps, { ownerId: req.begin.ownerId, test: !!req.begin.test }, req.templateId);
    const { parties, formFields } = partiesAndFieldsOf(tpl, req.signers, parseJsonText(req.valuesJson, 'values'));
    // The photos by party (the roles' order), from their position in the request's signers list.
    const photos = new Map<number, Buffer>();
    for (const [i, buf] of given) {
      const role = byRole ? i : tpl.roles.findIndex((r) => r.name === req.signers[i]?.role.trim().normalize('NFC'));
      if (!tpl.roles[role]) throw invalid(`signers[${i}]: there is no such signer for this photo`);
      photos.set(role, buf);
    }
    const request: CreationRequest = {
      begin: req.begin,
      fields: {
        signerName: '',
        signerEmail: '',
        signerEmails: [],
        attestationType: '',
        documentName: req.documentName || tpl.document_name,
        signers: parties,
        lifecycle: req.lifecycle,
        formFields,
      },
    };
    const prepared = await prepareCreation(deps, request, new Set(photos.keys()));
    const images = [...photos].map(([slot, buf]) => {
      const field = `signers (role ${tpl.roles[slot]!.name}): photo`;
      return { slot, buf, field, image: checkReferenceImage(buf, field) };
    });
    if (isCancelled()) throw invalid('cancelled by the client');
    const key = await deps.objects.copyDocument(tpl.document_key);
    cleanups.push(() => deps.objects.removeDocument(key));
    const refs: StoredRefs = new Map();
    for (const { slot, buf, field, image } of images) {
      const ref = await deps.objects.putReference(buf, image.kind === 'png' ? 'image/png' : 'image/jpeg');
      cleanups.push(() => deps.objects.removeReference(ref.key));
      refs.set(slot, ref);
      if (isCancelled()) throw invalid('cancelled by the client');
      await checkOneFace(deps, ref.key, field);
    }
    const document = { key, sha256: tpl.document_sha256, size: tpl.document_size };
    const result = await createFromStored(deps, request, { document, refs }, cleanups, prepared);
    if (result.replayed) await cleanup();
    deps.tm.templates.inc({ action: 'transaction', outcome: 'ok' });
    return result;
  } catch (err) {
    await cleanup();
    deps.tm.templates.inc({ action: 'transaction', outcome: outcomeOf(err) });
    throw err;
  }
}

/** The request (first) and the photos by role index (each photo's chunks contiguous, PhotoCollector's limits). */
async function readParts(parts: AsyncIterable<FromTemplatePart>) {
  let req: FromTemplateRequest | undefined;
  let last: number | undefined;
  let byRole: boolean | undefined;
  const photos = new PhotoCollector();
  for await (const part of parts) {
    if (part.kind === 'begin') {
      if (req) throw invalid('begin sent twice');
      if (!part.req.begin.ownerId) throw invalid('owner_id is required');
      req = part.req;
      continue;
    }
    if (!req) throw invalid('the first message must be begin');
    const slot = 'role' in part ? part.role : part.signer;
    if ((byRole ??= 'role' in part) !== 'role' in part) throw invalid('photos are named by signer or by role, not both');
    if (!Number.isInteger(slot) || slot < 0 || slot > 99) throw invalid('signer_reference.signer is out of range');
    photos.add(slot, part.bytes, last === slot);
    last = slot;
  }
  if (!req) throw invalid('the first message must be begin');
  return { req, photos: photos.photos() as Map<number, Buffer>, byRole: !!byRole };
}
