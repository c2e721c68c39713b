/**
 * The dashboard's calls to /api/templates (issue 33 item 3). The session is a caller like an API key
 * there (no CSRF), in the data mode of the switch. A template is a PDF with signer roles and fields
 * that name a role, each field on a page at x, y, width, height in PDF points from the lower-left
 * corner of the page as shown.
 */
import { ApiError, dataMode, session } from '../../api.js';
import type { Body, Ok, Schemas } from '../../../shared/api-types.js';

export type TemplateRole = Schemas['TemplateRole'];
/**
 * How the editor reads a template's field. The API gives fields as free-form objects (a transaction's
 * FormFieldSpec with `role` for `signer`), so this is the editor's view of the keys it places and
 * edits; any other key is kept as it came.
 */
export type TemplateField = Schemas['TemplateField'] & {
  id?: string;
  type: string;
  role: string;
  page?: number;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  anchor?: string;
  required?: boolean;
  label?: string;
  max_length?: number;
  pattern?: string;
  options?: string[];
};
export type Template = Omit<Schemas['Template'], 'fields'> & { fields: TemplateField[] };
type Update = Body<'/api/templates/{id}', 'patch'>;
type FromTemplate = Body<'/api/templates/{id}/transactions', 'post'>;
type Created = Ok<'/api/templates/{id}/transactions', 'post'>;

const headers = (json: boolean): Record<string, string> => ({
  ...(json ? { 'Content-Type': 'application/json' } : {}),
  ...(session.token ? { Authorization: `Bearer ${session.token}` } : {}),
  ...(dataMode.test ? { 'Signet-Mode': 'test' } : {}),
});

async function call<T>(
  method: string,
  url: string,
  body?: BodyInit,
  json = true,
  extra: Record<string, string> = {},
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: { ...headers(json && body !== undefined), ...extra },
      body,
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'The network is unavailable. Check your connection and try again.');
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok)
    throw new ApiError(res.status, (parsed as { detail?: string } | undefined)?.detail ?? `request failed (${res.status})`);
  return parsed as T;
}

const one = (id: string) => `/api/templates/${encodeURIComponent(id)}`;

export const templatesApi = {
  async list(): Promise<Template[]> {
    return (await call<{ items: Template[] }>('GET', '/api/templates?limit=100')).items;
  },
  get: (id: string) => call<Template>('GET', one(id)),
  /** Multipart: the PDF, the name, and the roles and fields as JSON parts. */
  create(name: string, document: File, roles: TemplateRole[]): Promise<Template> {
    const form = new FormData();
    form.append('name', name);
    form.append('roles', JSON.stringify(roles));
    form.append('fields', '[]');
    form.append('document', document, document.name);
    return call<Template>('POST', '/api/templates', form, false);
  },
  update: (id: string, change: Update) => call<Template>('PATCH', one(id), JSON.stringify(change)),
  /** A transaction from the template; the key makes a retry answer the first result. */
  send: (id: string, body: FromTemplate, idempotencyKey: string) =>
    call<Created>('POST', `${one(id)}/transactions`, JSON.stringify(body), true, { 'Idempotency-Key': idempotencyKey }),
  remove: (id: string) => call<void>('DELETE', one(id)),
  /** The template's PDF, for pdf.js. */
  async document(id: string): Promise<ArrayBuffer> {
    const res = await fetch(`${one(id)}/document`, { headers: headers(false), cache: 'no-store' });
    if (!res.ok) throw new ApiError(res.status, `the document could not be loaded (${res.status})`);
    return res.arrayBuffer();
  },
};
