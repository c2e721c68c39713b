import {
  checkRoles,
  checkTemplateName,
  parseJsonText,
  parseTemplateFields,
  type TemplateRecord,
  type TemplateRole,
} from '../domain/template.js';
import { outcomeOf } from './create-template.js';
import { findTemplate, placeOnDocument, templateNotFound, type TemplateDeps, type TemplateOwner } from './template-deps.js';

/** What changes: each given part replaces the template's. */
export type TemplateChange = { name?: string; roles?: TemplateRole[]; fieldsJson?: string };

/**
 * Changes a template's name, roles and/or fields. The result is checked whole as at creation: the
 * fields (new or kept) must name the roles (new or kept) and be placed on the document without
 * leaving a page or overlapping another role's; a refusal is a 400 and changes nothing.
 */
export async function updateTemplate(
  deps: TemplateDeps,
  who: TemplateOwner,
  id: string,
  change: TemplateChange,
): Promise<TemplateRecord> {
  try {
    const rec = await findTemplate(deps, who, id);
    const name = change.name === undefined ? rec.name : checkTemplateName(change.name);
    const roles = change.roles === undefined ? rec.roles : checkRoles(change.roles);
    const raw = change.fieldsJson === undefined ? rec.fields : parseJsonText(change.fieldsJson, 'fields');
    const { kept, specs } = parseTemplateFields(raw, roles);
    if (change.roles !== undefined || change.fieldsJson !== undefined)
      await placeOnDocument(await deps.objects.readDocument(rec.document_key), specs);
    const updated = await deps.templates.update(who.ownerId, who.test, id, {
      name,
      roles,
      fields: kept,
      updated_at: deps.clock(),
    });
    if (!updated) throw templateNotFound();
    deps.tm.templates.inc({ action: 'update', outcome: 'ok' });
    return updated;
  } catch (err) {
    deps.tm.templates.inc({ action: 'update', outcome: outcomeOf(err) });
    throw err;
  }
}
