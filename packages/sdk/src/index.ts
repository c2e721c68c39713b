export type { components, operations, paths } from './schema.js';
export {
  createSignetClient,
  createTransaction,
  retryAfterSeconds,
  SignetError,
  transactions,
  unwrap,
  type NewPartiesTransaction,
  type RequiredAssurance,
  type TransactionParty,
  type NewTransaction,
  type Schemas,
  type SignetOptions,
} from './client.js';
export { bulk, type BulkJob, type BulkRow, type BulkSendOptions } from './bulk.js';
export {
  templates,
  type NewTemplate,
  type NewTransactionFromTemplate,
  type TemplateFieldInput,
  type TemplateRoleInput,
  type TemplateSigner,
} from './templates.js';
