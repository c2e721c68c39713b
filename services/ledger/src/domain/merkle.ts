/**
 * The proving side of the RFC 9162 §2.1 Merkle tree, over stored node hashes.
 *
 * Storage keeps the hash of every complete, aligned subtree ("perfect node": level l, index i covers
 * leaves [i·2^l, (i+1)·2^l)), written once when its last leaf is appended and never changed. Any
 * subtree hash the RFC's recursion needs, MTH(D[a:b]), is the right fold of at most log2(b−a) perfect
 * nodes, so roots, inclusion and consistency proofs cost O(log n) node reads, never a scan of the leaves.
 */
import { createHash } from 'node:crypto';
import { leafHash, nodeHash } from '@signet/verify';

// The leaf and node hashes are the verifier's: one definition for the prover and the checker.
export { leafHash, nodeHash };

export type NodeId = { level: number; index: number };
export type Range = [start: number, end: number];
export type PerfectNode = NodeId & { hash: Buffer };

/** SHA-256 of the empty string: the root of the empty tree. */
export const EMPTY_ROOT = createHash('sha256').digest();

/** The largest power of two strictly below n (n ≥ 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** A storage key for a perfect node, unique per (level, index) below 2^45 leaves. */
export function nodeKey(id: NodeId): number {
  return id.level * 2 ** 45 + id.index;
}

/** [a, b) as aligned perfect subtrees, left to right (largest first for the ranges the RFC recursion makes). */
export function perfectSubtrees([a, b]: Range): NodeId[] {
  const out: NodeId[] = [];
  let at = a;
  while (at < b) {
    let size = 1;
    while (at % (size * 2) === 0 && at + size * 2 <= b) size *= 2;
    out.push({ level: Math.log2(size), index: at / size });
    at += size;
  }
  return out;
}

/** MTH(D[a:b]) from the perfect nodes covering it (`get` must know every node perfectSubtrees returns). */
export function rangeHash(range: Range, get: (id: NodeId) => Buffer): Buffer {
  if (range[1] <= range[0]) return EMPTY_ROOT;
  const nodes = perfectSubtrees(range).map(get);
  let h = nodes[nodes.length - 1]!;
  for (let i = nodes.length - 2; i >= 0; i--) h = nodeHash(nodes[i]!, h);
  return h;
}

/** The subtrees whose hashes form PATH(m, D[0:n]) (RFC 9162 §2.1.3.1), from the leaf upwards. */
export function inclusionRanges(index: number, size: number): Range[] {
  if (index < 0 || index >= size) throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
  const out: Range[] = [];
  const walk = (m: number, lo: number, hi: number) => {
    const n = hi - lo;
    if (n <= 1) return;
    const k = splitPoint(n);
    if (m < k) {
      walk(m, lo, lo + k);
      out.push([lo + k, hi]);
    } else {
      walk(m - k, lo + k, hi);
      out.push([lo, lo + k]);
    }
  };
  walk(index, 0, size);
  return out;
}

/** The subtrees whose hashes form PROOF(m, D[0:n]) (RFC 9162 §2.1.4.1), for 0 < m ≤ n. */
export function consistencyRanges(first: number, second: number): Range[] {
  if (first < 1 || first > second) throw new RangeError(`no consistency proof from ${first} to ${second}`);
  const out: Range[] = [];
  const sub = (m: number, lo: number, hi: number, complete: boolean) => {
    const n = hi - lo;
    if (m === n) {
      if (!complete) out.push([lo, hi]);
      return;
    }
    const k = splitPoint(n);
    if (m <= k) {
      sub(m, lo, lo + k, complete);
      out.push([lo + k, hi]);
    } else {
      sub(m - k, lo + k, hi, false);
      out.push([lo, lo + k]);
    }
  };
  sub(first, 0, second, true);
  return out;
}

/** Every perfect node the given ranges need, deduplicated. */
export function nodesFor(ranges: Range[]): NodeId[] {
  const seen = new Map<number, NodeId>();
  for (const r of ranges) for (const id of perfectSubtrees(r)) seen.set(nodeKey(id), id);
  return [...seen.values()];
}

/**
 * The right edge of a tree: its perfect subtrees left to right (at most log2 n of them). Appending
 * a leaf pushes it and merges equal levels; every merge is a newly complete node to store.
 */
export class Frontier {
  private constructor(
    private nodes: PerfectNode[],
    public size: number,
  ) {}

  static empty(): Frontier {
    return new Frontier([], 0);
  }

  /** The frontier of a tree of `size`, given its perfect nodes (as `perfectSubtrees([0, size])` lists them). */
  static of(size: number, nodes: PerfectNode[]): Frontier {
    return new Frontier([...nodes], size);
  }

  /** Appends a leaf hash; returns the perfect nodes this completes (the leaf itself first). */
  append(leaf: Buffer): PerfectNode[] {
    const made: PerfectNode[] = [{ level: 0, index: this.size, hash: leaf }];
    this.nodes.push(made[0]!);
    this.size += 1;
    while (this.nodes.length >= 2) {
      const right = this.nodes[this.nodes.length - 1]!;
      const left = this.nodes[this.nodes.length - 2]!;
      if (left.level !== right.level) break;
      const parent = { level: left.level + 1, index: left.index / 2, hash: nodeHash(left.hash, right.hash) };
      this.nodes.splice(-2, 2, parent);
      made.push(parent);
    }
    return made;
  }

  root(): Buffer {
    if (this.nodes.length === 0) return EMPTY_ROOT;
    let h = this.nodes[this.nodes.length - 1]!.hash;
    for (let i = this.nodes.length - 2; i >= 0; i--) h = nodeHash(this.nodes[i]!.hash, h);
    return h;
  }
}
