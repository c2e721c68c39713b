/**
 * The dashboard's calls to the gateway: session token, CSRF for /api/admin/* mutations, errors. Each
 * call names its path template and method, and its request and answer types come from the SDK.
 */
import {
  fill,
  type Body,
  type Method,
  type Ok,
  type Path,
  type PathParams,
  type Query,
  type Schemas,
} from '../shared/api-types.js';

const TOKEN_KEY = 'signet.session';
const MODE_KEY = 'signet.mode';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Answers of the API, as the SDK's generated types name them (shared/api-types.ts). */
export type LoginResult = Schemas['Session'];
export type MfaChallenge = Schemas['MfaChallenge'];
export type Profile = Ok<'/api/auth/me', 'post'>;
export type Account = Ok<'/api/admin/account', 'get'>;
export type Summary = Schemas['TransactionSummary'];
export type Detail = Ok<'/api/transactions/{id}', 'get'>;
export type Created = Ok<'/api/transactions', 'post'>;
export type ApiKey = Schemas['ApiKey'];
export type Settings = Ok<'/api/admin/account/settings', 'patch'>;
export type SettingsChange = Body<'/api/admin/account/settings', 'patch'>;
export type TwoFactorSetup = Ok<'/api/auth/2fa/setup', 'post'>;
export type Member = Schemas['Member'];
export type Invitation = Schemas['Invitation'];
export type KeyScope = NonNullable<Body<'/api/admin/api-keys', 'post'>['scopes']>[number];
export type Passkey = Schemas['Passkey'];
export type SecurityStatus = Schemas['SecurityStatus'];
export type AuditEvent = Schemas['AuditEvent'];
/** The authenticator's answer as the standard WebAuthn JSON (RegistrationResponseJSON / AuthenticationResponseJSON). */
export type WebauthnResponse = Body<'/api/auth/passkeys', 'post'>['response'];
/** The audit log's filters (the API's query names); empty ones are left out. */
export type AuditFilter = Pick<Query<'/api/admin/audit-log', 'get'>, 'action' | 'actor_id' | 'from' | 'to'>;

let token: string | null = localStorage.getItem(TOKEN_KEY);
let csrf: string | null = null;
/** Called when the session is refused (expired, password changed elsewhere). */
let onUnauthorized: () => void = () => undefined;

/**
 * The test/live switch (issue 34 item 9): with test on, every call says `Signet-Mode: test` and the
 * session sees and makes test data only, as a test-mode API key does. Kept in localStorage like the session.
 */
export const dataMode = {
  get test() {
    return localStorage.getItem(MODE_KEY) === 'test';
  },
  set(test: boolean) {
    if (test) localStorage.setItem(MODE_KEY, 'test');
    else localStorage.removeItem(MODE_KEY);
  },
};
const modeHeader = (): Record<string, string> => (dataMode.test ? { 'Signet-Mode': 'test' } : {});

export const session = {
  get token() {
    return token;
  },
  set(t: string) {
    token = t;
    csrf = null;
    localStorage.setItem(TOKEN_KEY, t);
  },
  clear() {
    token = null;
    csrf = null;
    localStorage.removeItem(TOKEN_KEY);
  },
  onUnauthorized(fn: () => void) {
    onUnauthorized = fn;
  },
};

async function parse(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type CallOpts<P extends Path, M extends Method> = {
  path?: PathParams<P, M>;
  query?: Record<string, string>;
  body?: Body<P, M>;
  /** A body that is not JSON (an image), sent with its own type. */
  raw?: Blob;
  auth?: boolean;
  csrf?: boolean;
};

async function call<P extends Path, M extends Method>(
  method: M,
  template: P,
  o: CallOpts<P, M> = {},
  retried = false,
): Promise<{ body: Ok<P, M>; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (o.body !== undefined) headers['Content-Type'] = 'application/json';
  if (o.raw) headers['Content-Type'] = o.raw.type || 'application/octet-stream';
  if (o.auth !== false && token) Object.assign(headers, { Authorization: `Bearer ${token}` }, modeHeader());
  const query = new URLSearchParams(o.query);
  if (o.csrf) query.set('csrf', await csrfToken());
  const url = fill(template, o.path as Record<string, string | number> | undefined) + (query.size ? `?${query.toString()}` : '');
  let res: Response;
  try {
    res = await fetch(url, {
      method: method.toUpperCase(),
      headers,
      body: o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body)),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'The network is unavailable. Check your connection and try again.');
  }
  const body = await parse(res);
  if (!res.ok) {
    const detail = (body as Partial<Schemas['Error']> | undefined)?.detail ?? `request failed (${res.status})`;
    // A CSRF token from an earlier session: fetch a fresh one once.
    if (res.status === 403 && o.csrf && !retried && /csrf/i.test(detail)) {
      csrf = null;
      return call(method, template, o, true);
    }
    if (res.status === 401 && o.auth !== false && token) {
      session.clear();
      onUnauthorized();
    }
    throw new ApiError(res.status, detail);
  }
  return { body: body as Ok<P, M>, headers: res.headers };
}

async function csrfToken(): Promise<string> {
  if (!csrf) csrf = (await call('get', '/api/admin/csrf')).body.csrf;
  return csrf;
}

const post = async <P extends Path>(path: P, o: CallOpts<P, 'post'> = {}) => (await call('post', path, o)).body;
const get = async <P extends Path>(path: P, o: CallOpts<P, 'get'> = {}) => (await call('get', path, o)).body;
const txPath = (id: number) => ({ id: String(id) });

export const api = {
  // Account
  register: (body: Body<'/api/auth/register', 'post'>) => post('/api/auth/register', { body, auth: false }),
  sendCode: (email: string) => post('/api/auth/send-code', { body: { email }, auth: false }),
  verifyEmail: (email: string, code: string) => post('/api/auth/verify-email', { body: { email, code }, auth: false }),
  onboarding: (onboarding_token: string, org_name: string) =>
    post('/api/auth/onboarding', { body: { onboarding_token, org_name }, auth: false }),
  login: (email: string, password: string) => post('/api/auth/login', { body: { email, password }, auth: false }),
  mfaLogin: (challenge: string, code: string) => post('/api/auth/2fa/login', { body: { challenge, code }, auth: false }),
  me: () => post('/api/auth/me'),
  changePassword: (current_password: string, new_password: string) =>
    post('/api/auth/change-password', { body: { current_password, new_password } }),
  setup2fa: () => post('/api/auth/2fa/setup'),
  enable2fa: (code: string) => post('/api/auth/2fa/enable', { body: { code } }),
  disable2fa: (password: string, code: string) => post('/api/auth/2fa/disable', { body: { password, code } }),
  sendResetCode: (email: string) => post('/api/auth/send-reset-code', { body: { email }, auth: false }),
  resetPassword: (email: string, code: string, new_password: string) =>
    post('/api/auth/reset-password-code', { body: { email, code, new_password }, auth: false }),

  // Dashboard (/api/admin: session only; mutations carry the CSRF token)
  account: () => get('/api/admin/account'),
  apiKeys: async () => (await get('/api/admin/api-keys')).api_keys,
  createApiKey: (name: string, mode: ApiKey['mode'] = 'live', scopes?: KeyScope[], expires_at?: string) =>
    post('/api/admin/api-keys', {
      body: { name, mode, ...(scopes?.length ? { scopes } : {}), ...(expires_at ? { expires_at } : {}) },
      csrf: true,
    }),
  revokeApiKey: async (id: string) => void (await call('delete', '/api/admin/api-keys/{id}', { path: { id }, csrf: true })),
  updateSettings: async (body: SettingsChange) => (await call('patch', '/api/admin/account/settings', { body, csrf: true })).body,
  /** The origins that may frame the account's signing pages (embedded signing). */
  embedOrigins: async () => (await get('/api/admin/account/embed-origins')).origins,
  branding: () => get('/api/admin/account/branding'),
  setBranding: async (body: Body<'/api/admin/account/branding', 'put'>) =>
    (await call('put', '/api/admin/account/branding', { body, csrf: true })).body,
  setBrandingLogo: async (image: Blob) =>
    (await call('put', '/api/admin/account/branding/logo', { raw: image, csrf: true })).body,
  deleteBrandingLogo: async () => (await call('delete', '/api/admin/account/branding/logo', { csrf: true })).body,
  setEmbedOrigins: async (origins: string[]) =>
    (await call('put', '/api/admin/account/embed-origins', { body: { origins }, csrf: true })).body.origins,

  // Passkeys and recovery codes (issue 34 item 8): the signed-in user's own, no CSRF (not /api/admin).
  securityStatus: () => get('/api/auth/security'),
  passkeys: async () => (await get('/api/auth/passkeys')).passkeys,
  passkeyOptions: () => post('/api/auth/passkeys/options'),
  registerPasskey: (name: string, response: WebauthnResponse) =>
    post('/api/auth/passkeys', { body: { ...(name ? { name } : {}), response } }),
  removePasskey: async (id: string) => void (await call('delete', '/api/auth/passkeys/{id}', { path: { id } })),
  renamePasskey: async (id: string, name: string) =>
    (await call('patch', '/api/auth/passkeys/{id}', { path: { id }, body: { name } })).body,
  generateRecoveryCodes: async () => (await post('/api/auth/recovery-codes')).codes,
  /** With the password step's challenge: that account's passkeys; without: a passkey-only sign-in. */
  passkeyLoginOptions: (challenge?: string) =>
    post('/api/auth/passkey/options', { body: challenge ? { challenge } : {}, auth: false }),
  passkeyLogin: (response: WebauthnResponse, challenge?: string) =>
    post('/api/auth/passkey/login', { body: { ...(challenge ? { challenge } : {}), response }, auth: false }),
  recoveryLogin: (challenge: string, recovery_code: string) =>
    post('/api/auth/2fa/login', { body: { challenge, recovery_code }, auth: false }),

  // The account audit log (issue 34 item 3): owners and admins.
  auditLog: (filter: AuditFilter, limit: number, cursor?: string) =>
    get('/api/admin/audit-log', { query: auditQuery({ ...filter, limit: String(limit), cursor }) }),
  /** The whole filtered log as a file (the route needs the Authorization header, so a plain link cannot fetch it). */
  exportAuditLog: (filter: AuditFilter, format: 'csv' | 'json') =>
    fetchBlob(
      `${'/api/admin/audit-log/export' satisfies Path}?${new URLSearchParams(auditQuery({ ...filter, format })).toString()}`,
    ),

  // Members and roles (issue 34)
  members: () => get('/api/admin/members'),
  inviteMember: (email: string, role: string) =>
    post('/api/admin/members/invitations', { body: { email, role: role as Member['role'] }, csrf: true }),
  changeMemberRole: async (userId: string, role: string) =>
    (
      await call('patch', '/api/admin/members/{user_id}', {
        path: { user_id: userId },
        body: { role: role as Member['role'] },
        csrf: true,
      })
    ).body,
  removeMember: async (userId: string) =>
    void (await call('delete', '/api/admin/members/{user_id}', { path: { user_id: userId }, csrf: true })),
  revokeInvitation: async (id: string) =>
    void (await call('delete', '/api/admin/members/invitations/{id}', { path: { id }, csrf: true })),
  acceptInvitation: (code: string, name: string, password: string) =>
    post('/api/auth/invitations/accept', { body: { code, name, password }, auth: false }),

  // Transactions
  /** One page of the list, filtered by the server (status, search text q); `next` is the following page's cursor. */
  async transactions(
    limit: number,
    cursor?: string,
    filter: { q?: string; status?: string } = {},
  ): Promise<{ items: Summary[]; next: string | null }> {
    const query: Query<'/api/transactions', 'get'> = {
      limit,
      ...(filter.status ? { status: filter.status as Summary['status'] } : {}),
      ...(filter.q ? { q: filter.q } : {}),
      ...(cursor ? { cursor } : {}),
    };
    const r = await call('get', '/api/transactions', {
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
    });
    return { items: r.body, next: r.headers.get('X-Next-Cursor') };
  },
  transaction: (id: number) => get('/api/transactions/{id}', { path: txPath(id) }),
  resend: (id: number) => post('/api/transactions/{id}/resend', { path: txPath(id) }),
  cancel: (id: number) => post('/api/transactions/{id}/cancel', { path: txPath(id) }),
  /** Deletes a finished transaction that is not on legal hold (409 otherwise); 404 afterwards. */
  deleteTransaction: async (id: number) => void (await call('delete', '/api/transactions/{id}', { path: txPath(id) })),
  /** Keeps everything of the transaction until released (already held: the hold stays as it was). */
  setLegalHold: async (id: number, reason: string) =>
    (await call('put', '/api/transactions/{id}/legal-hold', { path: txPath(id), body: reason ? { reason } : {} })).body,
  releaseLegalHold: async (id: number) => void (await call('delete', '/api/transactions/{id}/legal-hold', { path: txPath(id) })),
  /** The CSV as a Blob (the route needs the Authorization header, so a plain link cannot fetch it). */
  exportCsv: () => fetchBlob('/api/transactions/export.csv'),
  /**
   * A PDF of the transaction as a Blob (the route needs the Authorization header). 409 until the
   * ledger has sealed it.
   */
  pdf: (id: number, file: 'signed.pdf' | 'audit-trail.pdf') =>
    fetchBlob(fill(`/api/transactions/{id}/${file}` satisfies Path, txPath(id))),
  /**
   * Multipart creation with upload progress (XMLHttpRequest: fetch reports none). The
   * Idempotency-Key makes a retry after a lost answer return the same transaction.
   */
  createTransaction(form: FormData, idempotencyKey: string, onProgress: (fraction: number) => void): Promise<Created> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', '/api/transactions' satisfies Path);
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      for (const [k, v] of Object.entries(modeHeader())) xhr.setRequestHeader(k, v);
      xhr.setRequestHeader('Idempotency-Key', idempotencyKey);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress(e.loaded / e.total);
      };
      xhr.onerror = () => reject(new ApiError(0, 'The upload failed: the network is unavailable. Try again.'));
      xhr.onload = () => {
        let body: Partial<Schemas['Error']> & Partial<Created> = {};
        try {
          body = JSON.parse(xhr.responseText) as typeof body;
        } catch {
          /* not JSON */
        }
        if (xhr.status === 201 || xhr.status === 200) return resolve(body as Created);
        if (xhr.status === 401) {
          session.clear();
          onUnauthorized();
        }
        reject(new ApiError(xhr.status, body.detail ?? `upload failed (${xhr.status})`));
      };
      xhr.send(form);
    });
  },
};

/** The non-empty filters as query parameters. */
const auditQuery = (q: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(q).filter((e): e is [string, string] => !!e[1]));

/** GET of a file that needs the Authorization header, as a Blob; errors as ApiError with the answer's detail. */
async function fetchBlob(url: string): Promise<Blob> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { Authorization: `Bearer ${token ?? ''}`, ...modeHeader() }, cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'The network is unavailable. Check your connection and try again.');
  }
  if (!res.ok) {
    const b = (await parse(res)) as Partial<Schemas['Error']> | undefined;
    throw new ApiError(res.status, b?.detail ?? `download failed (${res.status})`);
  }
  return res.blob();
}

// Outgoing webhooks (/api/webhook-endpoints: the session is a caller like an API key).
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookEndpointCreate = Body<'/api/webhook-endpoints', 'post'>;
const endpoint = (id: string) => ({ path: { id } });
export const webhooksApi = {
  list: () => get('/api/webhook-endpoints'),
  create: (body: WebhookEndpointCreate) => post('/api/webhook-endpoints', { body }),
  update: async (id: string, body: Body<'/api/webhook-endpoints/{id}', 'patch'>) =>
    (await call('patch', '/api/webhook-endpoints/{id}', { ...endpoint(id), body })).body,
  remove: async (id: string) => void (await call('delete', '/api/webhook-endpoints/{id}', endpoint(id))),
  deliveries: (id: string) => get('/api/webhook-endpoints/{id}/deliveries', { ...endpoint(id), query: { limit: '20' } }),
  redeliver: (id: string, deliveryId: string) =>
    post('/api/webhook-endpoints/{id}/deliveries/{delivery_id}/redeliver', { path: { id, delivery_id: deliveryId } }),
};
