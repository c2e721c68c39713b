import type { TemplateRepository } from '../store/template.repository.js';
import type { BulkTemplateSource, RowCreation, RowCreator } from '../usecases/bulk-template.js';
import { createFromTemplate, type FromTemplateDeps, type FromTemplatePart } from '../usecases/create-from-template.js';

/** Bulk send's view of the template store: the roles and fields of the caller's template. */
export function bulkTemplates(templates: Pick<TemplateRepository, 'find'>): BulkTemplateSource {
  return async (ownerId, test, id) => {
    const t = await templates.find(ownerId, test, id);
    return t && { id: t._id, roles: t.roles, fields: t.fields };
  };
}

/** A bulk row's transaction through the template's creation: the request, then each photo by role index. */
export function bulkRowCreator(deps: FromTemplateDeps): RowCreator {
  return (c) => createFromTemplate(deps, partsOf(c), () => false);
}

async function* partsOf(c: RowCreation): AsyncIterable<FromTemplatePart> {
  yield {
    kind: 'begin',
    req: {
      begin: c.begin,
      templateId: c.templateId,
      signers: c.signers,
      valuesJson: c.valuesJson,
      lifecycle: { expiresAt: '', reminderFirstAfterSeconds: 0, reminderEverySeconds: 0, reminderMax: 0 },
      documentName: '',
    },
  };
  for (const [role, bytes] of c.photos) yield { kind: 'photo', role, bytes };
}
