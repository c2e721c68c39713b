import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type Schemas = components['schemas'];

/** An answer other than 2xx: its status, the `detail` of its `{"detail"}` body, and Retry-After when given. */
export class SignetError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(`${status}: ${detail}`);
    this.name = 'SignetError';
  }
}

export type SignetOptions = {
  /** The service root, e.g. https://signet.example (paths carry /api). */
  baseUrl: string;
  /** An API key (X-API-Key), for integrations. */
  apiKey?: string;
  /** A session JWT (Authorization: Bearer), for a signed-in person. */
  token?: string;
  /** Retries of a 429 or 503 answer, each after its Retry-After (default 2). */
  retries?: number;
  /** The longest wait for one Retry-After, in ms (default 30 000); a longer one is not retried. */
  maxRetryDelayMs?: number;
  fetch?: (input: Request) => Promise<Response>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** fetch with the credentials and the retries of 429 and 503 that honour Retry-After. */
function signetFetch(o: SignetOptions): (input: Request) => Promise<Response> {
  const base = o.fetch ?? ((r: Request) => globalThis.fetch(r));
  const retries = o.retries ?? 2;
  const maxDelay = o.maxRetryDelayMs ?? 30_000;
  return async (input) => {
    if (o.apiKey) input.headers.set('X-API-Key', o.apiKey);
    else if (o.token) input.headers.set('Authorization', `Bearer ${o.token}`);
    for (let attempt = 0; ; attempt++) {
      const res = await base(attempt < retries ? input.clone() : input);
      if ((res.status !== 429 && res.status !== 503) || attempt >= retries) return res;
      const wait = retryAfterSeconds(res.headers.get('retry-after'));
      if (wait === undefined || wait * 1000 > maxDelay) return res;
      await res.body?.cancel();
      await sleep(wait * 1000);
    }
  };
}

/** The typed client of the whole API (openapi-fetch): `client.GET('/api/transactions/{id}', { params: { path: { id } } })`. */
export function createSignetClient(o: SignetOptions): Client<paths> {
  return createClient<paths>({ baseUrl: o.baseUrl.replace(/\/+$/, ''), fetch: signetFetch(o) });
}

/** The data of a 2xx answer, or a SignetError carrying the status and `detail`. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const detail =
    error && typeof error === 'object' && 'detail' in error && typeof error.detail === 'string'
      ? error.detail
      : response.statusText;
  throw new SignetError(response.status, detail, retryAfterSeconds(response.headers.get('retry-after')));
}

type ListQuery = NonNullable<paths['/api/transactions']['get']['parameters']['query']>;

/** Every transaction of the caller, most recent first, page after page (X-Next-Cursor). */
export async function* transactions(
  client: Client<paths>,
  query: Omit<ListQuery, 'cursor'> = {},
): AsyncGenerator<Schemas['TransactionSummary']> {
  let cursor: string | undefined;
  do {
    const { data, error, response } = await client.GET('/api/transactions', {
      params: { query: { ...query, ...(cursor ? { cursor } : {}) } },
    });
    const page = await unwrap(Promise.resolve({ data, error, response }));
    yield* page;
    cursor = response.headers.get('x-next-cursor') ?? undefined;
  } while (cursor);
}

export type NewTransaction = {
  signer_name: string;
  signer_email: string;
  /** The PDF (at most 200 MB). */
  document: Blob;
  documentName?: string;
  /** The signer's face photo, JPEG or PNG. */
  reference: Blob;
  referenceName?: string;
  attestation_type?: 'signature' | 'approval' | 'review' | 'consent';
  /** Up to 4 additional signers. */
  signer_emails?: string[];
  /** What each signer's capture must prove at least (default live); see RequiredAssurance. */
  required_assurance?: RequiredAssurance;
  /** A retry with the same key and body answers the first result instead of creating another. */
  idempotencyKey?: string;
};

/**
 * The lowest assurance accepted from a signer: `recorded` (a single upload, or a live recording that
 * failed the real-time checks), `live` (the default) or `live+webauthn` (implies `webauthn`). A
 * capture below it is refused before analysis and uses up its challenge.
 */
export type RequiredAssurance = 'recorded' | 'live' | 'live+webauthn';

/** One party of the `signers` form field (see the createTransaction operation's description). */
export type TransactionParty = {
  name: string;
  email: string;
  /** signer (default) or approver sign; a viewer only receives the result. */
  role?: 'signer' | 'approver' | 'viewer';
  /** 1 (default) first; equal orders in parallel, the next order once all of them passed. */
  order?: number;
  /** face_match (default; needs `photo`) or liveness_only; none for a viewer. */
  verification?: 'face_match' | 'liveness_only';
  webauthn?: boolean;
  /** Default live; none for a viewer. */
  required_assurance?: RequiredAssurance;
};

/**
 * A transaction with a list of parties (signers, approvers, viewers) and routing orders; each
 * face_match signer (the default) brings their own reference photo, sent as signer_photo_<index>.
 */
export type NewPartiesTransaction = {
  signers: (TransactionParty & { photo?: Blob; photoName?: string })[];
  document: Blob;
  documentName?: string;
  attestation_type?: 'signature' | 'approval' | 'review' | 'consent';
  idempotencyKey?: string;
};

/** POST /api/transactions as multipart/form-data (fields first, then the document and the photos). */
export function createTransaction(
  client: Client<paths>,
  t: NewTransaction | NewPartiesTransaction,
): Promise<Schemas['TransactionCreated']> {
  const form = new FormData();
  if ('signers' in t) {
    form.append('signers', JSON.stringify(t.signers.map(({ photo: _p, photoName: _n, ...party }) => party)));
    if (t.attestation_type) form.append('attestation_type', t.attestation_type);
    form.append('document', t.document, t.documentName ?? 'document.pdf');
    t.signers.forEach((s, i) => {
      if (s.photo) form.append(`signer_photo_${i}`, s.photo, s.photoName ?? `signer-${i}.jpg`);
    });
  } else {
    form.append('signer_name', t.signer_name);
    form.append('signer_email', t.signer_email);
    if (t.attestation_type) form.append('attestation_type', t.attestation_type);
    if (t.signer_emails?.length) form.append('signer_emails', t.signer_emails.join(','));
    if (t.required_assurance) form.append('required_assurance', t.required_assurance);
    form.append('document', t.document, t.documentName ?? 'document.pdf');
    form.append('reference', t.reference, t.referenceName ?? 'reference.jpg');
  }
  return unwrap(
    client.POST('/api/transactions', {
      params: { header: t.idempotencyKey ? { 'Idempotency-Key': t.idempotencyKey } : {} },
      body: form as never,
      bodySerializer: (b) => b as unknown as FormData,
    }),
  );
}
