/**
 * Embedded signing in the browser (`@signet/sdk/embed`; the Node entry `@signet/sdk` never loads
 * this file). `embedSigning` frames a signing link in `container` and hands its events to `onEvent`.
 * The account must first allow the embedding page's origin (`PUT /api/admin/account/embed-origins`,
 * or the dashboard's Settings): the signing page may be framed by those origins only, and posts its
 * events to them only.
 *
 * Events, in the order a ceremony produces them: `ready` (the page loaded the signing session; `step`
 * says where it is), `consented`, `recorded` (the recording ended, the upload starts), `submitted`
 * (the recording was accepted for checking), then `verified`, or `failed` (with `attempts_left`; 0:
 * no attempt left), or `declined` at any point before. Only messages from this frame's window and the
 * link's origin are read.
 */
export const SIGNING_EVENTS = ['ready', 'consented', 'recorded', 'submitted', 'verified', 'failed', 'declined'] as const;
export type SigningEventType = (typeof SIGNING_EVENTS)[number];
export type SigningEvent = { type: SigningEventType; step?: string; attempts_left?: number };

export type EmbedSigningOptions = {
  /** The signer's `sign_url`, as the API answered it. */
  url: string;
  /** Where the frame goes; it fills the container (give the container a size). */
  container: HTMLElement;
  onEvent: (event: SigningEvent) => void;
  /** The frame's accessible title (default "Signing"). */
  title?: string;
};

export type EmbeddedSigning = {
  iframe: HTMLIFrameElement;
  /** Removes the frame and stops listening. */
  destroy: () => void;
};

/** The event in a message of the signing page, or undefined for anything else. */
export function parseSigningEvent(data: unknown): SigningEvent | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const m = data as Record<string, unknown>;
  if (m.source !== 'signet' || m.version !== 1) return undefined;
  if (!(SIGNING_EVENTS as readonly unknown[]).includes(m.type)) return undefined;
  const event: SigningEvent = { type: m.type as SigningEventType };
  if (typeof m.step === 'string') event.step = m.step;
  if (typeof m.attempts_left === 'number' && Number.isInteger(m.attempts_left)) event.attempts_left = m.attempts_left;
  return event;
}

/** Frames the signing page at `url` in `container` and reports its events to `onEvent`. */
export function embedSigning(o: EmbedSigningOptions): EmbeddedSigning {
  const src = new URL(o.url, window.location.href);
  if (src.protocol !== 'https:' && src.protocol !== 'http:') throw new Error('embedSigning: url must be an http(s) signing link');
  const iframe = document.createElement('iframe');
  iframe.src = src.href;
  iframe.title = o.title ?? 'Signing';
  // The ceremony needs the camera and microphone, and a passkey when the sender asks for one.
  iframe.allow = 'camera; microphone; publickey-credentials-get; publickey-credentials-create';
  iframe.style.border = '0';
  iframe.style.width = '100%';
  iframe.style.height = '100%';
  const listener = (e: MessageEvent) => {
    if (e.source !== iframe.contentWindow || e.origin !== src.origin) return;
    const event = parseSigningEvent(e.data);
    if (event) o.onEvent(event);
  };
  window.addEventListener('message', listener);
  o.container.appendChild(iframe);
  return {
    iframe,
    destroy() {
      window.removeEventListener('message', listener);
      iframe.remove();
    },
  };
}
