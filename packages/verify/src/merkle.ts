/**
 * Verification side of the RFC 9162 §2.1 Merkle tree: leaf and node hashes, inclusion proofs
 * (§2.1.3.2) and consistency proofs (§2.1.4.2). Pure functions, no I/O. Sizes and indexes are
 * JavaScript numbers (exact up to 2^53), shifted with arithmetic, never with 32-bit bit operators.
 */
import { createHash } from 'node:crypto';

export const HASH_SIZE = 32;

/** SHA-256(0x00 ‖ leaf bytes). */
export function leafHash(leaf: Uint8Array): Buffer {
  return createHash('sha256')
    .update(Buffer.from([0]))
    .update(leaf)
    .digest();
}

/** SHA-256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash('sha256')
    .update(Buffer.from([1]))
    .update(left)
    .update(right)
    .digest();
}

const odd = (n: number) => n % 2 === 1;
const half = (n: number) => Math.floor(n / 2);
const isPowerOfTwo = (n: number) => n > 0 && 2 ** Math.round(Math.log2(n)) === n;

function assertSize(name: string, n: number) {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer`);
}

/**
 * The root an inclusion proof leads to (RFC 9162 §2.1.3.2 steps 1–4), or null when the proof cannot
 * belong to a leaf at this index in a tree of this size (wrong length, index out of range).
 */
export function rootFromInclusionProof(index: number, size: number, leaf: Uint8Array, proof: Uint8Array[]): Buffer | null {
  assertSize('index', index);
  assertSize('size', size);
  if (index >= size) return null;
  if (proof.some((p) => p.length !== HASH_SIZE)) return null;
  let fn = index;
  let sn = size - 1;
  let r: Buffer = Buffer.from(leaf);
  for (const p of proof) {
    if (sn === 0) return null;
    if (odd(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!odd(fn)) {
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 ? r : null;
}

/** True when `proof` proves that `leaf` (a leaf hash) is at `index` of the tree of `size` with `root`. */
export function verifyInclusion(index: number, size: number, leaf: Uint8Array, proof: Uint8Array[], root: Uint8Array): boolean {
  const r = rootFromInclusionProof(index, size, leaf, proof);
  return r !== null && r.equals(Buffer.from(root));
}

/** True when `proof` proves that the tree of size `first` with `firstRoot` is a prefix of the one of size `second` (RFC 9162 §2.1.4.2). */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proof: Uint8Array[],
): boolean {
  assertSize('first', first);
  assertSize('second', second);
  if (first < 1 || first > second) return false;
  if (proof.some((p) => p.length !== HASH_SIZE)) return false;
  if (first === second) return proof.length === 0 && Buffer.from(firstRoot).equals(Buffer.from(secondRoot));
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr: Buffer = Buffer.from(path[0]!);
  let sr: Buffer = Buffer.from(path[0]!);
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (odd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!odd(fn)) {
        while (!odd(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && fr.equals(Buffer.from(firstRoot)) && sr.equals(Buffer.from(secondRoot));
}
