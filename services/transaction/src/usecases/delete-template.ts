import { templateNotFound, type TemplateDeps, type TemplateOwner } from './template-deps.js';

/**
 * Deletes the owner's template and its stored document. Transactions made from it are not touched:
 * each has its own copy of the document. NOT_FOUND for another owner's template or one already gone.
 */
export async function deleteTemplate(deps: TemplateDeps, who: TemplateOwner, id: string): Promise<void> {
  const removed = await deps.templates.remove(who.ownerId, who.test, id);
  if (!removed) throw templateNotFound();
  await deps.objects.removeDocument(removed.document_key);
  deps.tm.templates.inc({ action: 'delete', outcome: 'ok' });
}
