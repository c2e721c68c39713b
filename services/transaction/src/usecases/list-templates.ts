import { invalid } from '@signet/kit';
import type { TemplateRecord } from '../domain/template.js';
import type { TemplateDeps, TemplateOwner } from './template-deps.js';

const MAX_LIMIT = 100;
const CURSOR = /^tpl_[0-9a-z]{1,40}$/;

/** The owner's templates of the caller's mode, newest first, `limit` (1 to 100, default 20) after `cursor`. */
export async function listTemplates(
  deps: Pick<TemplateDeps, 'templates'>,
  who: TemplateOwner,
  limit: number,
  cursor: string,
): Promise<{ items: TemplateRecord[]; nextCursor: string }> {
  const n = limit || 20;
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) throw invalid(`limit must be from 1 to ${MAX_LIMIT}`);
  if (cursor && !CURSOR.test(cursor)) throw invalid('cursor is not one this API returned');
  const items = await deps.templates.list(who.ownerId, who.test, n + 1, cursor || undefined);
  const more = items.length > n;
  const page = items.slice(0, n);
  return { items: page, nextCursor: more ? page[page.length - 1]!._id : '' };
}
