/**
 * What the /verify page recomputes in the browser with WebCrypto: RFC 8785 canonical JSON, RFC 9162 leaf
 * and node hashes, the root an inclusion proof leads to, and Ed25519 signatures (null where the browser
 * has no Ed25519 in WebCrypto).
 */
export type Bytes = Uint8Array<ArrayBuffer>;

export const enc = new TextEncoder();

export function hex(buf: ArrayBuffer | Bytes): string {
  return Array.from(new Uint8Array(buf))
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
}

export function b64(buf: Bytes): string {
  let s = '';
  buf.forEach((b) => (s += String.fromCharCode(b)));
  return btoa(s);
}

/** Base64 or base64url to bytes. */
export function unb64(s: string): Bytes {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function concat(parts: Bytes[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export async function sha256(bytes: Bytes): Promise<Bytes> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
}

export const leafHash = (bytes: Bytes) => sha256(concat([new Uint8Array([0]), bytes]));
const nodeHash = (l: Bytes, r: Bytes) => sha256(concat([new Uint8Array([1]), l, r]));

export function same(a: Bytes, b: Bytes): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** RFC 8785: sorted keys (UTF-16 order), ECMAScript number and string serialization. */
export function canonicalize(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(canonicalize).join(',') + ']';
  const o = v as Record<string, unknown>;
  return (
    '{' +
    Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => JSON.stringify(k) + ':' + canonicalize(o[k]))
      .join(',') +
    '}'
  );
}

/** RFC 9162 section 2.1.3.2: the root the inclusion proof of a leaf leads to, or null if it is malformed. */
export async function rootFromProof(index: number, size: number, leaf: Bytes, proof: Bytes[]): Promise<Bytes | null> {
  if (index >= size) return null;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = await nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = await nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}

/** true or false; null when this browser cannot check Ed25519 (or the key is not one). */
export async function ed25519(pub: Bytes, sig: Bytes, msg: Bytes): Promise<boolean | null> {
  try {
    const key = await crypto.subtle.importKey('raw', pub, { name: 'Ed25519' }, false, ['verify']);
    return await crypto.subtle.verify({ name: 'Ed25519' }, key, sig, msg);
  } catch {
    return null;
  }
}
