import type { Begin } from './creation-upload.js';
import type { CreationResult } from './create-from-stored.js';

/** What bulk send needs of a template: its roles (and how each is verified) and its fields' ids and kinds. */
export type BulkTemplate = {
  id: string;
  roles: { name: string; verification: string }[];
  fields: { id: string; type?: unknown }[];
};
/** The caller's template of the caller's mode, or null (another owner's or the other mode's too). */
export type BulkTemplateSource = (ownerId: string, test: boolean, id: string) => Promise<BulkTemplate | null>;

/** One row's transaction as asked of the template: who asks, a signer per role, prefilled values, photos by role index. */
export type RowCreation = {
  begin: Begin;
  templateId: string;
  signers: { role: string; name: string; email: string }[];
  /** Prefilled values by field id, as a JSON object. */
  valuesJson: string;
  photos: Map<number, Buffer>;
};
/**
 * Creates one row's transaction through the template's creation (create-from-template, which calls
 * create-from-stored: quota, Idempotency-Key, record and events as any creation).
 */
export type RowCreator = (c: RowCreation) => Promise<CreationResult>;
