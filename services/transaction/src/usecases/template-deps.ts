import { notFound } from '@signet/kit';
import type { TemplateRecord } from '../domain/template.js';
import { placeFields, type PageSize } from '../domain/field-placement.js';
import type { FieldSpec } from '../domain/form-fields.js';
import { readLayout } from '../domain/pdf-layout.js';
import type { TransactionMetrics } from '../metrics.js';
import type { ObjectStore } from '../store/object.store.js';
import type { TemplateRepository } from '../store/template.repository.js';

/** What the template use cases need. */
export type TemplateDeps = {
  templates: TemplateRepository;
  objects: Pick<ObjectStore, 'documents' | 'readDocument' | 'removeDocument'>;
  tm: Pick<TransactionMetrics, 'templates' | 'documentsRefused'>;
  clock: () => Date;
};

/** Who asks: the owner and the mode (a test-mode key sees only test templates, a live key only live ones). */
export type TemplateOwner = { ownerId: string; test: boolean };

export const templateNotFound = () => notFound('no such template');

/**
 * The fields placed on the template's document as a transaction's would be (off the page, a page that
 * does not exist, two roles' fields overlapping, an anchor not found: a 400 naming the field). Returns
 * the document's pages.
 */
export async function placeOnDocument(bytes: Uint8Array, specs: FieldSpec[]): Promise<PageSize[]> {
  const anchors = new Set(specs.flatMap((f) => ('anchor' in f.at ? [f.at.anchor] : [])));
  const layout = await readLayout(bytes, anchors);
  placeFields(specs, layout, (party) => party);
  return layout.pages;
}

/** The owner's template of the caller's mode, or NOT_FOUND. */
export async function findTemplate(
  deps: Pick<TemplateDeps, 'templates'>,
  who: TemplateOwner,
  id: string,
): Promise<TemplateRecord> {
  const rec = await deps.templates.find(who.ownerId, who.test, id);
  if (!rec) throw templateNotFound();
  return rec;
}
