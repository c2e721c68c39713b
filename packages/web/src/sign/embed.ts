/**
 * Events of an embedded signing page to the page that frames it (issue 34 item 6). The gateway
 * allows framing only by the origins of the sender's account (`frame-ancestors`) and writes the same
 * list into `<meta name="signet-embed-origins">`; events go to those origins only, never to `*` (a
 * postMessage whose target origin is not the parent's is dropped by the browser). Where the browser
 * names the parent (`location.ancestorOrigins`), only that one of the list is addressed. The message
 * is `{ source: 'signet', version: 1, type, ... }`; the SDK's `embedSigning` reads it. Nothing of the
 * signer, the document or the token is in it.
 */
export type SigningEventType = 'ready' | 'consented' | 'recorded' | 'submitted' | 'verified' | 'failed' | 'declined';

const allowed = (document.querySelector<HTMLMetaElement>('meta[name="signet-embed-origins"]')?.content ?? '')
  .split(' ')
  .filter((o) => /^https?:\/\/[^\s/]+$/.test(o));

export function emit(type: SigningEventType, detail: { attempts_left?: number; step?: string } = {}) {
  if (window.parent === window || allowed.length === 0) return;
  const parent = location.ancestorOrigins?.[0];
  const targets = parent ? allowed.filter((o) => o === parent) : allowed;
  for (const origin of targets) window.parent.postMessage({ source: 'signet', version: 1, type, ...detail }, origin);
}
