/** The dashboard's calls to the gateway: session token, CSRF for /api/admin/* mutations, errors. */

const TOKEN_KEY = 'signet.session';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export type LoginResult = { token: string; email: string; org_name: string; expires_at?: string };
export type MfaChallenge = { mfa_required: true; challenge: string; expires_at: string };
export type Profile = {
  user_id: string;
  email: string;
  name: string;
  org_name: string;
  two_factor_enabled: boolean;
  session_ttl_hours?: number;
  created_at?: string;
  plan?: string;
};
export type Account = {
  plan: string;
  monthly_limit: number;
  monthly_used: number;
  signature_credits: number;
  past_due: boolean;
  past_due_since: string | null;
  grace_ends_at: string | null;
  checkout: { pro: string | null; firm: string | null; credits: string | null };
};
export type Summary = {
  id: number;
  token: string;
  signer_name: string;
  signer_email: string;
  status: string;
  verification_mode: string;
  created_at: string;
  verified_at?: string;
  reference: string;
};
export type Detail = Summary & {
  attestation_type: string;
  document_name: string;
  document_sha256: string;
  signers: {
    index: number;
    name: string;
    email: string;
    state: string;
    verification_mode: string;
    attempts_left: number;
    role?: string;
    order?: number;
    webauthn?: boolean;
  }[];
  /** Parties who only receive the result. */
  viewers?: { name: string; email: string; order: number }[];
  events: { type: string; at: string; actor: string; detail: string }[];
  /** When the signing links stop working (null: created before expiry existed). */
  expires_at?: string | null;
  /** The automatic reminder schedule. */
  reminders?: { sent: number; max: number; next_at: string | null };
};
export type Created = { id: number; reference: string; token: string; sign_url: string; status: string };
export type ApiKey = {
  id: string;
  name: string;
  prefix: string;
  /** test: free, test data only (sgn_test_…). */
  mode: 'live' | 'test';
  created_at: string;
  last_used_at: string | null;
  key?: string;
};

let token: string | null = localStorage.getItem(TOKEN_KEY);
let csrf: string | null = null;
/** Called when the session is refused (expired, password changed elsewhere). */
let onUnauthorized: () => void = () => undefined;

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

type CallOpts = { body?: unknown; auth?: boolean; csrf?: boolean };

async function call<T>(method: string, path: string, o: CallOpts = {}, retried = false): Promise<{ body: T; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (o.body !== undefined) headers['Content-Type'] = 'application/json';
  if (o.auth !== false && token) headers.Authorization = `Bearer ${token}`;
  let url = path;
  if (o.csrf) url += `${path.includes('?') ? '&' : '?'}csrf=${encodeURIComponent(await csrfToken())}`;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'The network is unavailable. Check your connection and try again.');
  }
  const body = await parse(res);
  if (!res.ok) {
    const detail = (body as { detail?: string } | undefined)?.detail ?? `request failed (${res.status})`;
    // A CSRF token from an earlier session: fetch a fresh one once.
    if (res.status === 403 && o.csrf && !retried && /csrf/i.test(detail)) {
      csrf = null;
      return call<T>(method, path, o, true);
    }
    if (res.status === 401 && o.auth !== false && token) {
      session.clear();
      onUnauthorized();
    }
    throw new ApiError(res.status, detail);
  }
  return { body: body as T, headers: res.headers };
}

async function csrfToken(): Promise<string> {
  if (!csrf) csrf = (await call<{ csrf: string }>('GET', '/api/admin/csrf')).body.csrf;
  return csrf;
}

const post = async <T>(path: string, body?: unknown, o: CallOpts = {}) => (await call<T>('POST', path, { ...o, body })).body;
const get = async <T>(path: string) => (await call<T>('GET', path)).body;

export const api = {
  // Account
  register: (b: { email: string; password: string; name: string }) =>
    post<{ email: string }>('/api/auth/register', b, { auth: false }),
  sendCode: (email: string) => post('/api/auth/send-code', { email }, { auth: false }),
  verifyEmail: (email: string, code: string) =>
    post<{ onboarding_token: string }>('/api/auth/verify-email', { email, code }, { auth: false }),
  onboarding: (onboarding_token: string, org_name: string) =>
    post<LoginResult>('/api/auth/onboarding', { onboarding_token, org_name }, { auth: false }),
  login: (email: string, password: string) =>
    post<LoginResult | MfaChallenge>('/api/auth/login', { email, password }, { auth: false }),
  mfaLogin: (challenge: string, code: string) => post<LoginResult>('/api/auth/2fa/login', { challenge, code }, { auth: false }),
  me: () => post<Profile>('/api/auth/me'),
  changePassword: (current_password: string, new_password: string) =>
    post<LoginResult>('/api/auth/change-password', { current_password, new_password }),
  setup2fa: () => post<{ secret: string; otpauth_uri: string; qr_data_url: string }>('/api/auth/2fa/setup'),
  enable2fa: (code: string) => post('/api/auth/2fa/enable', { code }),
  disable2fa: (password: string, code: string) => post('/api/auth/2fa/disable', { password, code }),
  sendResetCode: (email: string) => post('/api/auth/send-reset-code', { email }, { auth: false }),
  resetPassword: (email: string, code: string, new_password: string) =>
    post('/api/auth/reset-password-code', { email, code, new_password }, { auth: false }),

  // Dashboard (/api/admin: session only; mutations carry the CSRF token)
  account: () => get<Account>('/api/admin/account'),
  apiKeys: async () => (await get<{ api_keys: ApiKey[] }>('/api/admin/api-keys')).api_keys,
  createApiKey: (name: string, mode: 'live' | 'test' = 'live') =>
    post<ApiKey & { key: string }>('/api/admin/api-keys', { name, mode }, { csrf: true }),
  revokeApiKey: async (id: string) =>
    void (await call('DELETE', `/api/admin/api-keys/${encodeURIComponent(id)}`, { csrf: true })),
  updateSettings: async (b: { session_ttl_hours: number }) =>
    (await call<{ session_ttl_hours: number }>('PATCH', '/api/admin/account/settings', { body: b, csrf: true })).body,

  // Transactions
  /** One page of the list, filtered by the server (status, search text q); `next` is the following page's cursor. */
  async transactions(
    limit: number,
    cursor?: string,
    filter: { q?: string; status?: string } = {},
  ): Promise<{ items: Summary[]; next: string | null }> {
    const q = new URLSearchParams({
      limit: String(limit),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.q ? { q: filter.q } : {}),
      ...(cursor ? { cursor } : {}),
    });
    const r = await call<Summary[]>('GET', `/api/transactions?${q.toString()}`);
    return { items: r.body, next: r.headers.get('X-Next-Cursor') };
  },
  transaction: (id: number) => get<Detail>(`/api/transactions/${id}`),
  resend: (id: number) => post<Summary>(`/api/transactions/${id}/resend`),
  cancel: (id: number) => post<Summary>(`/api/transactions/${id}/cancel`),
  /** The CSV as a Blob (the route needs the Authorization header, so a plain link cannot fetch it). */
  async exportCsv(): Promise<Blob> {
    let res: Response;
    try {
      res = await fetch('/api/transactions/export.csv', {
        headers: { Authorization: `Bearer ${token ?? ''}` },
        cache: 'no-store',
      });
    } catch {
      throw new ApiError(0, 'The network is unavailable. Check your connection and try again.');
    }
    if (!res.ok) {
      const b = (await parse(res)) as { detail?: string } | undefined;
      throw new ApiError(res.status, b?.detail ?? `export failed (${res.status})`);
    }
    return res.blob();
  },
  /**
   * Multipart creation with upload progress (XMLHttpRequest: fetch reports none). The
   * Idempotency-Key makes a retry after a lost answer return the same transaction.
   */
  createTransaction(form: FormData, idempotencyKey: string, onProgress: (fraction: number) => void): Promise<Created> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', '/api/transactions');
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      xhr.setRequestHeader('Idempotency-Key', idempotencyKey);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress(e.loaded / e.total);
      };
      xhr.onerror = () => reject(new ApiError(0, 'The upload failed: the network is unavailable. Try again.'));
      xhr.onload = () => {
        let body: { detail?: string } & Partial<Created> = {};
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

// Outgoing webhooks (/api/webhook-endpoints: the session is a caller like an API key).
export type WebhookEndpoint = {
  id: string;
  url: string;
  event_types: string[];
  description: string;
  enabled: boolean;
  disabled_reason: '' | 'failing' | 'owner';
  created_at: string;
  updated_at: string;
  secret?: string;
};
export type WebhookDelivery = {
  id: string;
  webhook_id: string;
  event_type: string;
  transaction_id: number;
  status: 'pending' | 'delivered' | 'failed' | 'cancelled';
  created_at: string;
  next_attempt_at: string | null;
  attempts: { at: string; status: number; latency_ms: number; result: string; response_snippet: string }[];
};
const endpointPath = (id: string) => `/api/webhook-endpoints/${encodeURIComponent(id)}`;
export const webhooksApi = {
  list: () => get<WebhookEndpoint[]>('/api/webhook-endpoints'),
  create: (b: { url: string; event_types: string[]; description: string }) =>
    post<WebhookEndpoint & { secret: string }>('/api/webhook-endpoints', b),
  update: async (id: string, b: { enabled?: boolean }) =>
    (await call<WebhookEndpoint>('PATCH', endpointPath(id), { body: b })).body,
  remove: async (id: string) => void (await call('DELETE', endpointPath(id))),
  deliveries: (id: string) => get<WebhookDelivery[]>(`${endpointPath(id)}/deliveries?limit=20`),
  redeliver: (id: string, deliveryId: string) =>
    post<WebhookDelivery>(`${endpointPath(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`),
};
