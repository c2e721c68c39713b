/**
 * The /verify page's calls: the public verification, the certificate's evidence bundle, the log's keys and
 * the signed-PDF check. Their answers are the SDK's types (shared/api-types.ts).
 */
// Types only: the shared chunk's styles (its .skip class is the skip link) stay off this page, whose checks use .skip.
import type { Ok, Schemas } from '../shared/api-types.js';

export type Verification = Ok<'/api/verify/{label}/{hash}', 'get'>;
export type Bundle = Ok<'/api/ledger/proof/{reference}', 'get'>;
export type LogKeys = Ok<'/api/ledger/public-key', 'get'>;
export type LogKey = LogKeys['keys'][number];
export type LedgerKeys = Ok<'/api/ledger/keys', 'get'>;
export type SignedPdfReport = Ok<'/api/verify/signed-pdf', 'post'>;
type Problem = Schemas['Error'];

/** An answer: for 200 its body; otherwise its status and the problem. */
export type Answer<T> = { ok: true; body: T } | { ok: false; status: number; body: Problem };

/** The JSON of an answer, or a problem naming its status when it has none. */
async function answer<T>(res: Response): Promise<Answer<T>> {
  const body = (await res.json().catch(() => ({ detail: `the server answered ${res.status}` }))) as T | Problem;
  return res.status === 200 ? { ok: true, body: body as T } : { ok: false, status: res.status, body: body as Problem };
}

export async function verification(ref: string, prefix: string): Promise<Answer<Verification>> {
  return answer(await fetch(`/api/verify/${encodeURIComponent(ref)}/${encodeURIComponent(prefix)}`));
}

/** Where the bundle is fetched from (download: as the attachment <reference>.cert.json). */
export function bundleUrl(ref: string, prefix: string, download = false): string {
  return `/api/ledger/proof/${encodeURIComponent(ref)}?hash=${prefix}` + (download ? '&download=1' : '');
}

/** The bundle, or the status it could not be fetched with. */
export async function bundle(ref: string, prefix: string): Promise<Bundle | number> {
  const res = await fetch(bundleUrl(ref, prefix));
  return res.ok ? ((await res.json()) as Bundle) : res.status;
}

export async function logKeys(log: Verification['log']): Promise<LogKeys> {
  return (await (await fetch('/api/ledger/public-key' + (log === 'test' ? '?log=test' : ''))).json()) as LogKeys;
}

/** Every verifier key of the logs and their witnesses, or the status it could not be fetched with. */
export async function ledgerKeys(): Promise<LedgerKeys | number> {
  const res = await fetch('/api/ledger/keys', { headers: { Accept: 'application/json' } });
  return res.ok ? ((await res.json()) as LedgerKeys) : res.status;
}

export async function checkSignedPdf(bytes: Uint8Array<ArrayBuffer>): Promise<Answer<SignedPdfReport>> {
  return answer(
    await fetch('/api/verify/signed-pdf', { method: 'POST', headers: { 'Content-Type': 'application/pdf' }, body: bytes }),
  );
}
