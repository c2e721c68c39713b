import { invalid, type DomainError } from './errors.js';

/**
 * U+0000 in any string of a request message, keys of maps included: the path of the first, or
 * undefined. PostgreSQL (under FerretDB) refuses U+0000 in text, so a NUL that reached a store would
 * fail as an internal error; no text a service keeps has a use for it. Bytes fields are not text.
 */
export function nulPath(value: unknown, at: string[] = []): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? at.join('.') || 'request' : undefined;
  if (!value || typeof value !== 'object' || value instanceof Uint8Array) return undefined;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [k, v] of entries) {
    if (k.includes('\u0000')) return [...at, 'key'].join('.');
    const found = nulPath(v, [...at, k]);
    if (found) return found;
  }
  return undefined;
}

/** INVALID_ARGUMENT naming the field of a request message that holds U+0000, or undefined. */
export function nulRefusal(request: unknown): DomainError | undefined {
  const path = nulPath(request);
  return path ? invalid(`${path}: must not contain the NUL character (U+0000)`, 'INVALID_TEXT') : undefined;
}
