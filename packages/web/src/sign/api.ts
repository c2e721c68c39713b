/** The signing page's calls to /api/sign/{token}/*. */
export type Summary = {
  signer_name: string;
  issuer_name: string;
  document_name: string;
  document_sha256_prefix: string;
  attestation_type: string;
  attestation_text: string;
  step: 'consent' | 'challenge' | 'verifying' | 'passed' | 'failed';
  attempts_left: number;
  attempt: number;
  webauthn_offered: boolean;
  webauthn_done: boolean;
  /** The sender asked for the device confirmation: it cannot be skipped. */
  webauthn_required?: boolean;
  verification_mode: string;
  outcome: string | null;
  consent_text_version: string;
  consent_text: string;
  /** new challenges left in this attempt */
  draws_left: number;
  /** after a failed verdict: face | action | words | light | challenge */
  redo: string[];
};

/** What the page shows during one segment of the live recording. */
export type Reveal = {
  segment: number;
  colour: string;
  prompt: 'neutral' | 'words' | 'action' | 'hold';
  words: string[];
  action: string | null;
  action_number: number;
  action_count: number;
};

export type LiveStart = {
  nonce: string;
  expires_at: string;
  attempt: number;
  segment_ms: number;
  segments: number;
  draws_left: number;
  reveal: Reveal;
};

export type LiveAck = { seq: number; done: boolean; reveal: Reveal | null };

export type Challenge = {
  words: string[];
  actions: string[];
  nonce: string;
  expires_at: string;
  attempt: number;
  action_seconds: number;
  /** seconds the words stay on screen before the first action */
  read_seconds?: number;
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export function api(token: string) {
  const base = `/api/sign/${encodeURIComponent(token)}`;
  const call = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(base + path, { ...init, credentials: 'omit', cache: 'no-store' });
    } catch {
      throw new ApiError(0, 'The network is unavailable. Check your connection.');
    }
    const body = (await res.json().catch(() => ({}))) as { detail?: string };
    if (!res.ok) throw new ApiError(res.status, body.detail ?? `request failed (${res.status})`);
    return body as T;
  };
  const post = <T>(path: string, body?: unknown) =>
    call<T>(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  return {
    base,
    summary: () => call<Summary>('/summary'),
    consent: (version: string) => post<Summary>('/consent', { consent_text_version: version }),
    decline: (reason: string) => post<{ status: 'declined'; declined_at: string }>('/decline', reason ? { reason } : {}),
    challenge: () => call<Challenge>('/challenge'),
    webauthnOptions: () =>
      post<{ kind: 'registration' | 'authentication'; options: Record<string, unknown> }>('/webauthn/options'),
    webauthnVerify: (response: unknown) =>
      post<{ verified: boolean; verification_mode: string }>('/webauthn/verify', { response }),
    forensic: (events: unknown[]) => post<unknown>('/forensic', { events }),
    live: () => post<LiveStart>('/live'),
    /** One recorder timeslice; `shown` lists the segments shown since the last chunk, at recording times (ms). */
    chunk: (nonce: string, seq: number, data: Blob, shown: [number, number][]) =>
      call<LiveAck>(
        `/live/${nonce}/chunks/${seq}${shown.length ? `?shown=${shown.map(([k, ms]) => `${k}:${Math.round(ms)}`).join(',')}` : ''}`,
        { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: data },
      ),
    finish: (nonce: string, frame: Blob) =>
      call<{ capture_id: string; attempt: number; assurance: string }>(`/live/${nonce}/finish`, {
        method: 'POST',
        headers: { 'Content-Type': frame.type || 'image/jpeg' },
        body: frame,
      }),
    /** Multipart upload with progress (XHR: fetch has no upload progress). Rejects with ApiError; status 0 is a network failure. */
    capture(
      nonce: string,
      video: Blob,
      frame: Blob,
      onProgress: (fraction: number) => void,
    ): Promise<{ capture_id: string; attempt: number }> {
      const form = new FormData();
      form.append('nonce', nonce);
      form.append('video', video, video.type.includes('mp4') ? 'video.mp4' : 'video.webm');
      form.append('frame', frame, 'frame.jpg');
      return new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', `${base}/capture`);
        xhr.responseType = 'json';
        xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
        xhr.onerror = () => reject(new ApiError(0, 'The connection was lost during the upload.'));
        xhr.ontimeout = () => reject(new ApiError(0, 'The upload timed out.'));
        xhr.onload = () => {
          const body = (xhr.response ?? {}) as { detail?: string };
          if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.response);
          else reject(new ApiError(xhr.status, body.detail ?? `upload failed (${xhr.status})`));
        };
        xhr.timeout = 180_000;
        xhr.send(form);
      });
    },
  };
}
