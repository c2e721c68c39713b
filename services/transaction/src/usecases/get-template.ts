import type { TemplateRecord } from '../domain/template.js';
import { findTemplate, type TemplateDeps, type TemplateOwner } from './template-deps.js';

/** One template of the owner (NOT_FOUND for another owner's, or one of the other mode). */
export async function getTemplate(
  deps: Pick<TemplateDeps, 'templates'>,
  who: TemplateOwner,
  id: string,
): Promise<TemplateRecord> {
  return findTemplate(deps, who, id);
}
