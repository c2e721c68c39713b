import { timingSafeEqual } from 'node:crypto';
import { invalid } from '@signet/kit';

/** A certificate reference: <PREFIX>-TX-<8 digits>, the prefix 2–8 upper-case letters or digits. */
export const REFERENCE_PATTERN = /^[A-Z0-9]{2,8}-TX-\d{8}$/;
/** The first 16 characters of a document SHA-256, or all 64, lower-case hex. */
export const HASH_PREFIX_PATTERN = /^[0-9a-f]{16}(?:[0-9a-f]{48})?$/;

/** The reference of a lookup, else INVALID_ARGUMENT. */
export function checkReference(reference: string): string {
  if (!REFERENCE_PATTERN.test(reference)) throw invalid('reference must look like ABC-TX-00000001');
  return reference;
}

/**
 * A public lookup's document hash: its first 16 hex characters or the whole 64 (then the whole hash
 * is compared), lower-cased, else INVALID_ARGUMENT.
 */
export function checkHashPrefix(prefixIn: string): string {
  const prefix = prefixIn.toLowerCase();
  if (!HASH_PREFIX_PATTERN.test(prefix))
    throw invalid('hash must be the first 16 hex characters of the document SHA-256, or all 64');
  return prefix;
}

/** Constant-time comparison of two hash prefixes. */
export function samePrefix(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
