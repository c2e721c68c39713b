import type { TemplateDeps, TemplateOwner } from './template-deps.js';
import { findTemplate } from './template-deps.js';

/**
 * The template's document as it was uploaded, for the sender's editor to render (GET
 * /api/templates/{id}/document): another owner's template, or one of the other mode, is NOT_FOUND.
 * Held in memory: a template's document is bounded by the upload limit, like a transaction's.
 */
export async function getTemplateDocument(
  deps: Pick<TemplateDeps, 'templates' | 'objects'>,
  who: TemplateOwner,
  id: string,
): Promise<{ name: string; bytes: Buffer }> {
  const rec = await findTemplate(deps, who, id);
  return { name: rec.document_name, bytes: await deps.objects.readDocument(rec.document_key) };
}
