import type { Client } from 'openapi-fetch';
import { unwrap, type RequiredAssurance, type Schemas } from './client.js';
import type { paths } from './schema.js';

/** One signer role of a template: named per transaction (see TemplateSigner). */
export type TemplateRoleInput = {
  name: string;
  /** 1 (default) first; equal orders sign in parallel. */
  order?: number;
  /** face_match (default: each transaction brings this role's photo) or liveness_only. */
  verification?: 'face_match' | 'liveness_only';
  webauthn?: boolean;
  required_assurance?: RequiredAssurance;
};

/** A template's field: as a transaction's `fields` entry, with `role` (a role's name) instead of `signer`. */
export type TemplateFieldInput = Record<string, unknown> & { role: string; type: string };

export type NewTemplate = {
  name: string;
  roles: TemplateRoleInput[];
  fields?: TemplateFieldInput[];
  /** The PDF (at most 200 MB). */
  document: Blob;
  documentName?: string;
};

/** The signer for one role of a template, with their face photo (JPEG or PNG) for a face_match role. */
export type TemplateSigner = { role: string; name: string; email: string; photo?: Blob | Uint8Array };

export type NewTransactionFromTemplate = {
  signers: TemplateSigner[];
  /** Prefilled values by field id (text and dropdown: a string; checkbox: true or false). */
  values?: Record<string, string | boolean>;
  document_name?: string;
  expires_at?: string;
  /** A retry with the same key and body answers the first result instead of creating another. */
  idempotencyKey?: string;
};

type TemplateUpdate = NonNullable<paths['/api/templates/{id}']['patch']['requestBody']>['content']['application/json'];

async function base64(b: Blob | Uint8Array): Promise<string> {
  const bytes = b instanceof Uint8Array ? b : new Uint8Array(await b.arrayBuffer());
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/**
 * Templates (a PDF with fields for signer roles) and transactions from them:
 * `templates(client).create({ name, roles, fields, document })`, `.list()`, `.get(id)`,
 * `.update(id, { name })`, `.delete(id)`, `.createTransaction(id, { signers, values })`.
 */
export function templates(client: Client<paths>) {
  return {
    /** POST /api/templates as multipart/form-data (name, roles and fields as JSON, then the PDF). */
    create(t: NewTemplate): Promise<Schemas['Template']> {
      const form = new FormData();
      form.append('name', t.name);
      form.append('roles', JSON.stringify(t.roles));
      if (t.fields) form.append('fields', JSON.stringify(t.fields));
      form.append('document', t.document, t.documentName ?? 'document.pdf');
      return unwrap(client.POST('/api/templates', { body: form as never, bodySerializer: (b) => b as unknown as FormData }));
    },
    /** One page of the caller's templates, newest first (`next_cursor` for the next). */
    list(query: { limit?: number; cursor?: string } = {}): Promise<Schemas['TemplateList']> {
      return unwrap(client.GET('/api/templates', { params: { query } }));
    },
    get(id: string): Promise<Schemas['Template']> {
      return unwrap(client.GET('/api/templates/{id}', { params: { path: { id } } }));
    },
    /** Changes what is given (name, roles, fields), checked again against the document. */
    update(id: string, change: TemplateUpdate): Promise<Schemas['Template']> {
      return unwrap(client.PATCH('/api/templates/{id}', { params: { path: { id } }, body: change }));
    },
    async delete(id: string): Promise<void> {
      await unwrap(client.DELETE('/api/templates/{id}', { params: { path: { id } } }));
    },
    /** POST /api/templates/{id}/transactions: each role's signer (photos sent as base64) and prefilled values. */
    async createTransaction(id: string, t: NewTransactionFromTemplate): Promise<Schemas['TransactionCreated']> {
      const signers = await Promise.all(
        t.signers.map(async ({ photo, ...s }) => ({ ...s, ...(photo ? { photo: await base64(photo) } : {}) })),
      );
      const { idempotencyKey, signers: _given, ...rest } = t;
      return unwrap(
        client.POST('/api/templates/{id}/transactions', {
          params: { path: { id }, header: idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {} },
          body: { ...rest, signers },
        }),
      );
    },
  };
}
