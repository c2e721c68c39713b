/**
 * The signing page's calls to /api/sign/{token}/*. Each call names its path template and method; its
 * request and answer types come from the SDK (shared/api-types.ts).
 */
import { t } from './i18n/index.js';
import { fill, type Body, type Method, type Ok, type Path, type Schemas } from '../shared/api-types.js';

export type Summary = Ok<'/api/sign/{token}/summary', 'get'>;
/** What the page shows during one segment of the live recording. */
export type Reveal = Schemas['LiveReveal'];
export type LiveStart = Ok<'/api/sign/{token}/live', 'post'>;
export type LiveAck = Ok<'/api/sign/{token}/live/{nonce}/chunks/{seq}', 'post'>;
export type Challenge = Ok<'/api/sign/{token}/challenge', 'get'>;
export type CaptureReceipt = Ok<'/api/sign/{token}/capture', 'post'>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

type SignPath = Extract<Path, `/api/sign/{token}/${string}`>;

export function api(token: string) {
  const base = fill('/api/sign/{token}', { token });
  const call = async <P extends SignPath, M extends Method>(
    method: M,
    template: P,
    init: { path?: Record<string, string | number>; query?: string; headers?: Record<string, string>; body?: BodyInit } = {},
  ): Promise<Ok<P, M>> => {
    const url = fill(template, { token, ...init.path }) + (init.query ? `?${init.query}` : '');
    let res: Response;
    try {
      res = await fetch(url, {
        method: method.toUpperCase(),
        headers: init.headers,
        body: init.body,
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch {
      throw new ApiError(0, t('error.network'));
    }
    const body = (await res.json().catch(() => ({}))) as Partial<Schemas['Error']>;
    if (!res.ok) throw new ApiError(res.status, body.detail ?? `request failed (${res.status})`);
    return body as Ok<P, M>;
  };
  const post = <P extends SignPath>(template: P, body?: Body<P, 'post'>) =>
    call('post', template, { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  return {
    base,
    summary: () => call('get', '/api/sign/{token}/summary'),
    consent: (version: string) => post('/api/sign/{token}/consent', { consent_text_version: version }),
    decline: (reason: string) => post('/api/sign/{token}/decline', reason ? { reason } : {}),
    challenge: () => call('get', '/api/sign/{token}/challenge'),
    fields: () => call('get', '/api/sign/{token}/fields'),
    submitFields: (body: Body<'/api/sign/{token}/fields', 'put'>) =>
      call('put', '/api/sign/{token}/fields', { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    /** The document's bytes (for pdf.js). */
    async document(): Promise<ArrayBuffer> {
      const res = await fetch(fill('/api/sign/{token}/document', { token }), { credentials: 'omit', cache: 'no-store' });
      if (!res.ok) throw new ApiError(res.status, `the document could not be loaded (${res.status})`);
      return res.arrayBuffer();
    },
    webauthnOptions: () => post('/api/sign/{token}/webauthn/options'),
    webauthnVerify: (response: Body<'/api/sign/{token}/webauthn/verify', 'post'>['response']) =>
      post('/api/sign/{token}/webauthn/verify', { response }),
    forensic: (events: Body<'/api/sign/{token}/forensic', 'post'>['events']) => post('/api/sign/{token}/forensic', { events }),
    live: () => post('/api/sign/{token}/live'),
    /** One recorder timeslice; `shown` lists the segments shown since the last chunk, at recording times (ms). */
    chunk: (nonce: string, seq: number, data: Blob, shown: [number, number][]) =>
      call('post', '/api/sign/{token}/live/{nonce}/chunks/{seq}', {
        path: { nonce, seq },
        query: shown.length ? `shown=${shown.map(([k, ms]) => `${k}:${Math.round(ms)}`).join(',')}` : '',
        headers: { 'Content-Type': 'application/octet-stream' },
        body: data,
      }),
    finish: (nonce: string, frame: Blob) =>
      call('post', '/api/sign/{token}/live/{nonce}/finish', {
        path: { nonce },
        headers: { 'Content-Type': frame.type || 'image/jpeg' },
        body: frame,
      }),
    /** Multipart upload with progress (XHR: fetch has no upload progress). Rejects with ApiError; status 0 is a network failure. */
    capture(nonce: string, video: Blob, frame: Blob, onProgress: (fraction: number) => void): Promise<CaptureReceipt> {
      const form = new FormData();
      form.append('nonce', nonce);
      form.append('video', video, video.type.includes('mp4') ? 'video.mp4' : 'video.webm');
      form.append('frame', frame, 'frame.jpg');
      return new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', fill('/api/sign/{token}/capture' satisfies SignPath, { token }));
        xhr.responseType = 'json';
        xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
        xhr.onerror = () => reject(new ApiError(0, t('error.uploadLost')));
        xhr.ontimeout = () => reject(new ApiError(0, t('error.uploadTimeout')));
        xhr.onload = () => {
          const body = (xhr.response ?? {}) as Partial<Schemas['Error']>;
          if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.response as CaptureReceipt);
          else reject(new ApiError(xhr.status, body.detail ?? `upload failed (${xhr.status})`));
        };
        xhr.timeout = 180_000;
        xhr.send(form);
      });
    },
  };
}
