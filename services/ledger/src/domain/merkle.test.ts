import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rootFromInclusionProof, verifyConsistency, verifyInclusion } from '@signet/verify';
import {
  consistencyRanges,
  EMPTY_ROOT,
  Frontier,
  inclusionRanges,
  leafHash,
  nodeHash,
  nodeKey,
  nodesFor,
  perfectSubtrees,
  rangeHash,
  splitPoint,
  type NodeId,
} from './merkle.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const unhex = (s: string) => Buffer.from(s, 'hex');

// The Certificate Transparency reference inputs and tree heads (RFC 6962/9162 hashing).
const CT_LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(unhex);
const CT_ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];

/** MTH, PATH and PROOF exactly as RFC 9162 §2.1 defines them, over leaf hashes. Slow, obviously right. */
const ref = {
  mth(d: Buffer[]): Buffer {
    if (d.length === 0) return EMPTY_ROOT;
    if (d.length === 1) return d[0]!;
    const k = splitPoint(d.length);
    return nodeHash(ref.mth(d.slice(0, k)), ref.mth(d.slice(k)));
  },
  path(m: number, d: Buffer[]): Buffer[] {
    if (d.length <= 1) return [];
    const k = splitPoint(d.length);
    return m < k
      ? [...ref.path(m, d.slice(0, k)), ref.mth(d.slice(k))]
      : [...ref.path(m - k, d.slice(k)), ref.mth(d.slice(0, k))];
  },
  subproof(m: number, d: Buffer[], b: boolean): Buffer[] {
    if (m === d.length) return b ? [] : [ref.mth(d)];
    const k = splitPoint(d.length);
    return m <= k
      ? [...ref.subproof(m, d.slice(0, k), b), ref.mth(d.slice(k))]
      : [...ref.subproof(m - k, d.slice(k), false), ref.mth(d.slice(0, k))];
  },
};

/** An in-memory store of perfect nodes, built the way the repository builds it: by appending. */
function build(leaves: Buffer[]) {
  const store = new Map<number, Buffer>();
  const f = Frontier.empty();
  const roots = [f.root()];
  for (const l of leaves) {
    for (const n of f.append(l)) store.set(nodeKey(n), n.hash);
    roots.push(f.root());
  }
  const get = (id: NodeId) => {
    const h = store.get(nodeKey(id));
    if (!h) throw new Error(`node ${id.level}/${id.index} was never stored`);
    return h;
  };
  return {
    store,
    roots,
    root: (size: number) => rangeHash([0, size], get),
    inclusion: (index: number, size: number) => inclusionRanges(index, size).map((r) => rangeHash(r, get)),
    consistency: (m: number, n: number) => consistencyRanges(m, n).map((r) => rangeHash(r, get)),
  };
}

const ctHashes = CT_LEAVES.map(leafHash);
const randomLeaves = (n: number) => Array.from({ length: n }, () => leafHash(randomBytes(40)));

describe('the Merkle tree (RFC 9162 §2.1)', () => {
  it('has the reference root for every size 0..8, by append and from stored nodes', () => {
    const t = build(ctHashes);
    for (let n = 0; n <= 8; n++) {
      expect(hex(t.roots[n]!), `size ${n} (frontier)`).toBe(CT_ROOTS[n]);
      expect(hex(t.root(n)), `size ${n} (stored nodes)`).toBe(CT_ROOTS[n]);
      expect(hex(ref.mth(ctHashes.slice(0, n))), `size ${n} (reference)`).toBe(CT_ROOTS[n]);
    }
  });

  it('produces the reference inclusion and consistency proofs', () => {
    const t = build(ctHashes);
    expect(t.inclusion(0, 8).map(hex)).toEqual([
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ]);
    expect(t.inclusion(5, 8).map(hex)).toEqual([
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ]);
    expect(t.consistency(1, 1)).toEqual([]);
    expect(t.consistency(1, 8).map(hex)).toEqual(t.inclusion(0, 8).map(hex));
    expect(t.consistency(6, 8).map(hex)).toEqual([
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ]);
    expect(t.consistency(2, 5).map(hex)).toEqual([
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ]);
  });

  it('proves and verifies every inclusion and consistency for every size up to 8', () => {
    const t = build(ctHashes);
    for (let n = 1; n <= 8; n++) {
      const root = t.root(n);
      for (let m = 0; m < n; m++) {
        const proof = t.inclusion(m, n);
        expect(proof.map(hex), `PATH(${m}, D[${n}])`).toEqual(ref.path(m, ctHashes.slice(0, n)).map(hex));
        expect(verifyInclusion(m, n, ctHashes[m]!, proof, root), `inclusion ${m} in ${n}`).toBe(true);
      }
      for (let m = 1; m <= n; m++) {
        const proof = t.consistency(m, n);
        expect(proof.map(hex), `PROOF(${m}, D[${n}])`).toEqual(ref.subproof(m, ctHashes.slice(0, n), true).map(hex));
        expect(verifyConsistency(m, n, t.root(m), root, proof), `consistency ${m} → ${n}`).toBe(true);
      }
    }
  });

  it('agrees with the reference on random larger trees', () => {
    for (const size of [9, 31, 64, 65, 100 + Math.floor(Math.random() * 400)]) {
      const leaves = randomLeaves(size);
      const t = build(leaves);
      expect(hex(t.root(size))).toBe(hex(ref.mth(leaves)));
      for (let i = 0; i < 25; i++) {
        const n = 1 + Math.floor(Math.random() * size);
        const m = Math.floor(Math.random() * n);
        const proof = t.inclusion(m, n);
        expect(proof.map(hex)).toEqual(ref.path(m, leaves.slice(0, n)).map(hex));
        expect(verifyInclusion(m, n, leaves[m]!, proof, t.root(n))).toBe(true);
        const first = 1 + Math.floor(Math.random() * n);
        const cproof = t.consistency(first, n);
        expect(cproof.map(hex)).toEqual(ref.subproof(first, leaves.slice(0, n), true).map(hex));
        expect(verifyConsistency(first, n, t.root(first), t.root(n), cproof)).toBe(true);
      }
    }
  });

  it('needs at most log2(n) stored nodes per proof hash and only stores complete subtrees', () => {
    const leaves = randomLeaves(1000);
    const t = build(leaves);
    // 1000 leaves: 1000 + 500 + 250 + 125 + 62 + 31 + 15 + 7 + 3 + 1 perfect nodes.
    expect(t.store.size).toBe(1994);
    expect(perfectSubtrees([0, 1000]).map((n) => 2 ** n.level)).toEqual([512, 256, 128, 64, 32, 8]);
    expect(nodesFor(inclusionRanges(999, 1000)).length).toBeLessThanOrEqual(20);
  });

  describe('rejects', () => {
    const leaves = randomLeaves(13);
    const t = build(leaves);
    const root = t.root(13);
    const proof = t.inclusion(6, 13);

    it('a tampered leaf', () => {
      const tampered = Buffer.from(leaves[6]!);
      tampered[0]! ^= 1;
      expect(verifyInclusion(6, 13, tampered, proof, root)).toBe(false);
    });
    it('a wrong index', () => {
      expect(verifyInclusion(7, 13, leaves[6]!, proof, root)).toBe(false);
      expect(verifyInclusion(5, 13, leaves[6]!, proof, root)).toBe(false);
      expect(verifyInclusion(13, 13, leaves[6]!, proof, root)).toBe(false);
    });
    it('a truncated or extended proof', () => {
      expect(verifyInclusion(6, 13, leaves[6]!, proof.slice(0, -1), root)).toBe(false);
      expect(rootFromInclusionProof(6, 13, leaves[6]!, proof.slice(1))).toBeNull();
      expect(verifyInclusion(6, 13, leaves[6]!, [...proof, root], root)).toBe(false);
    });
    it('a tampered proof hash, and a wrong tree size', () => {
      const bad = proof.map((p) => Buffer.from(p));
      bad[1]![5]! ^= 0x80;
      expect(verifyInclusion(6, 13, leaves[6]!, bad, root)).toBe(false);
      // (A tree size with the same path shape, e.g. 12, computes the same root: the size is bound by the checkpoint.)
      expect(verifyInclusion(6, 8, leaves[6]!, proof, root)).toBe(false);
      expect(verifyInclusion(6, 7, leaves[6]!, proof, root)).toBe(false);
    });
    it('a consistency proof against a forked history or truncated', () => {
      const c = t.consistency(5, 13);
      expect(verifyConsistency(5, 13, t.root(5), root, c)).toBe(true);
      const fork = build([...leaves.slice(0, 4), leafHash(Buffer.from('forged')), ...leaves.slice(5)]);
      expect(verifyConsistency(5, 13, fork.root(5), root, c)).toBe(false);
      expect(verifyConsistency(5, 13, t.root(5), root, c.slice(0, -1))).toBe(false);
      expect(verifyConsistency(5, 13, t.root(5), root, [])).toBe(false);
      expect(verifyConsistency(6, 13, t.root(5), root, c)).toBe(false);
      expect(verifyConsistency(0, 13, EMPTY_ROOT, root, c)).toBe(false);
    });
  });

  it('computes proof sizes for a million leaves without building the tree', () => {
    expect(inclusionRanges(0, 1_000_000)).toHaveLength(20);
    expect(inclusionRanges(999_999, 1_000_000).length).toBeLessThanOrEqual(20);
    expect(consistencyRanges(999_999, 1_000_000).length).toBeLessThanOrEqual(2 * 20);
  });
});
