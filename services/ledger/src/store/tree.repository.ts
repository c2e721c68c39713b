/**
 * Storage of the Merkle log, in four collections of the ledger database:
 * - ledger_head: one document, the tree head (size, root, signed checkpoint) and the append lease;
 * - ledger_leaves: one per leaf, `_id` = leaf index (inserting it claims the index), its reference (unique),
 *   leaf hash and leaf bytes (the certificate's canonical JSON: the log alone can rebuild every record);
 * - ledger_nodes: the hash of every complete aligned subtree above the leaves, `_id` = nodeKey(level, index);
 * - ledger_checkpoints: every signed checkpoint, `_id` = tree size (for consistency checks by clients).
 * Nodes and leaves are immutable. Appends only insert (plus one head update per checkpoint): on the
 * FerretDB/SQLite store an update costs ~10 ms per document, an insert of 500 documents ~30 ms.
 * Uses the driver collections directly: appends are the hot path and hashes are plain binary.
 */
import type { Connection } from 'mongoose';
import { contention, isDuplicateKey } from '@signet/kit';
import { nodeKey, type NodeId, type PerfectNode } from '../domain/merkle.js';

export type TreeHead = { size: number; root: Buffer; checkpoint: string };
export type LeafRecord = { index: number; reference: string; hash: Buffer; leaf?: string };

type HeadDoc = { _id: string; size: number; root: unknown; checkpoint: string; lease_token: string | null; lease_until: Date };
type LeafDoc = { _id: number; reference: string; h: unknown; c?: string };
type NodeDoc = { _id: number; h: unknown };
type CheckpointDoc = { _id: number; note: string; at: Date };

const HEAD_ID = 'head';

function buf(v: unknown): Buffer {
  if (Buffer.isBuffer(v)) return v;
  const b = (v as { buffer?: ArrayBufferLike | Uint8Array }).buffer;
  if (b instanceof Uint8Array) return Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  if (b) return Buffer.from(b as ArrayBuffer);
  throw new Error('not a binary value');
}

/** A certificate's leaf to claim: its reference, canonical bytes (as text) and leaf hash. */
export type ClaimItem = { reference: string; leaf: string; hash: Buffer };
const leafOf = (i: ClaimItem) => ({ reference: i.reference, hash: i.hash, leaf: i.leaf });

/** How many documents of an ordered insert went in before the duplicate that stopped it. */
function firstFailed(err: unknown): number {
  const e = err as { writeErrors?: { index: number }[] | { index: number }; insertedCount?: number };
  const first = Array.isArray(e.writeErrors) ? e.writeErrors[0] : e.writeErrors;
  return first?.index ?? e.insertedCount ?? 0;
}

export class LeaseLost extends Error {
  constructor() {
    super('the log append lease was lost to another writer');
  }
}

export function createTreeRepository(conn: Connection) {
  const heads = conn.collection<HeadDoc>('ledger_head');
  const leaves = conn.collection<LeafDoc>('ledger_leaves');
  const nodes = conn.collection<NodeDoc>('ledger_nodes');
  const checkpoints = conn.collection<CheckpointDoc>('ledger_checkpoints');
  const toHead = (d: HeadDoc): TreeHead => ({ size: d.size, root: buf(d.root), checkpoint: d.checkpoint });
  /** One past the largest claimed leaf index. */
  const nextIndex = async (): Promise<number> => {
    const last = await leaves
      .find({}, { projection: { _id: 1 } })
      .sort({ _id: -1 })
      .limit(1)
      .toArray();
    return last.length ? last[0]!._id + 1 : 0;
  };

  return {
    async init(emptyRoot: Buffer, emptyCheckpoint: string) {
      // A reference is appended at most once, whatever happens to the writer.
      await leaves.createIndex({ reference: 1 }, { unique: true });
      try {
        await heads.updateOne(
          { _id: HEAD_ID },
          {
            $setOnInsert: { size: 0, root: emptyRoot, checkpoint: emptyCheckpoint, lease_token: null, lease_until: new Date(0) },
          },
          { upsert: true },
        );
      } catch (err) {
        if (!isDuplicateKey(err)) throw err; // another replica created it first
      }
    },

    async head(): Promise<TreeHead> {
      const d = await heads.findOne({ _id: HEAD_ID });
      if (!d) throw new Error('tree head missing: init() was not called');
      return toHead(d);
    },

    /**
     * Takes (or renews) the single-writer lease: succeeds when the lease has expired or is ours.
     * Returns the head as of the acquisition, or null while another writer holds it.
     */
    async acquire(token: string, leaseMs: number): Promise<TreeHead | null> {
      const now = new Date();
      const d = await heads.findOneAndUpdate(
        { _id: HEAD_ID, $or: [{ lease_until: { $lt: now } }, { lease_token: token }] },
        { $set: { lease_token: token, lease_until: new Date(now.getTime() + leaseMs) } },
        { returnDocument: 'after' },
      );
      return d ? toHead(d) : null;
    },

    async release(token: string) {
      await heads.updateOne({ _id: HEAD_ID, lease_token: token }, { $set: { lease_token: null, lease_until: new Date(0) } });
    },

    /**
     * Moves the head from `from` to a new size, only if we still hold the lease and nobody moved it:
     * a writer whose lease expired mid-batch fails here and publishes nothing.
     */
    async advance(token: string, from: number, head: TreeHead, leaseMs: number) {
      const r = await heads.updateOne(
        { _id: HEAD_ID, size: from, lease_token: token },
        { $set: { size: head.size, root: head.root, checkpoint: head.checkpoint, lease_until: new Date(Date.now() + leaseMs) } },
      );
      if (r.matchedCount !== 1) throw new LeaseLost();
    },

    /**
     * Claims the next leaf indexes for certificates, in their order, with one ordered insert
     * (`_id` = index): `hint`, `hint` + 1, … When the insert stops at a duplicate, the leaves before it
     * are claimed; if that certificate's reference already has a leaf (a retry after a crash, or the
     * same certificate twice in the batch) it gets that leaf back and the rest go on from the same
     * free index; otherwise another writer took the index and the rest go on from the largest index + 1.
     * Nothing is appended twice and no index is skipped. Returns the leaves in order and how many are new.
     */
    async claimLeaves(items: ClaimItem[], hint: number): Promise<{ leaves: LeafRecord[]; inserted: number }> {
      const out: LeafRecord[] = new Array<LeafRecord>(items.length);
      let pending = items.map((_, i) => i);
      let index = hint;
      let inserted = 0;
      // 50 tries for one certificate; each one found already claimed costs one more.
      for (let attempt = 0; pending.length && attempt < 49 + items.length; attempt++) {
        const docs = pending.map((p, k) => ({
          _id: index + k,
          reference: items[p]!.reference,
          h: items[p]!.hash,
          c: items[p]!.leaf,
        }));
        let done = docs.length;
        try {
          await leaves.insertMany(docs, { ordered: true });
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
          done = firstFailed(err);
        }
        pending.slice(0, done).forEach((p, k) => (out[p] = { index: index + k, ...leafOf(items[p]!) }));
        inserted += done;
        if (done === docs.length) {
          pending = [];
          break;
        }
        const stopped = pending[done]!;
        const mine = await leaves.findOne({ reference: items[stopped]!.reference });
        if (mine) {
          out[stopped] = { index: mine._id, reference: mine.reference, hash: buf(mine.h), leaf: mine.c };
          pending = pending.slice(done + 1);
          index += done;
        } else {
          pending = pending.slice(done);
          index = await nextIndex();
        }
      }
      // retryable (gRPC UNAVAILABLE, 503 with Retry-After at the gateway), never a 500
      if (pending.length) throw contention('could not claim a leaf index: too much contention; retry shortly');
      return { leaves: out, inserted };
    },

    nextIndex,

    /** Leaves at or beyond `from`, by index: claimed by a writer that stopped before moving the head. */
    async leavesFrom(from: number, limit: number): Promise<LeafRecord[]> {
      // Without the leaf bytes (`c`, the certificate's JSON): the sealing pass needs only the hashes.
      const docs = await leaves
        .find({ _id: { $gte: from } }, { projection: { reference: 1, h: 1 } })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray();
      return docs.map((d) => ({ index: d._id, reference: d.reference, hash: buf(d.h) }));
    },

    async leafByReference(reference: string): Promise<LeafRecord | null> {
      const d = await leaves.findOne({ reference });
      return d ? { index: d._id, reference: d.reference, hash: buf(d.h) } : null;
    },

    /** The hashes of these perfect nodes (level 0 from the leaves). Throws if one is missing. */
    async nodes(ids: NodeId[]): Promise<(id: NodeId) => Buffer> {
      const leafIdx = ids.filter((i) => i.level === 0).map((i) => i.index);
      const nodeKeys = ids.filter((i) => i.level > 0).map(nodeKey);
      const [ls, ns] = await Promise.all([
        leafIdx.length ? leaves.find({ _id: { $in: leafIdx } }, { projection: { h: 1 } }).toArray() : [],
        nodeKeys.length ? nodes.find({ _id: { $in: nodeKeys } }).toArray() : [],
      ]);
      const map = new Map<number, Buffer>();
      for (const d of ls) map.set(nodeKey({ level: 0, index: d._id }), buf(d.h));
      for (const d of ns) map.set(d._id, buf(d.h));
      return (id) => {
        const h = map.get(nodeKey(id));
        if (!h) throw new Error(`Merkle node ${id.level}/${id.index} is missing`);
        return h;
      };
    },

    /** Stores newly complete nodes above the leaves, in one insert. Idempotent: a node's hash never changes. */
    async putNodes(made: PerfectNode[]) {
      const docs = made.filter((n) => n.level > 0).map((n) => ({ _id: nodeKey(n), h: n.hash }));
      if (docs.length === 0) return;
      try {
        await nodes.insertMany(docs, { ordered: false });
      } catch (err) {
        // Written already by a writer that stopped before moving the head: same hashes.
        if (!isDuplicateKey(err) && !(err as { writeErrors?: { code?: number }[] }).writeErrors?.every((e) => e.code === 11000))
          throw err;
      }
    },

    async putCheckpoint(size: number, note: string) {
      await checkpoints.replaceOne({ _id: size }, { note, at: new Date() }, { upsert: true });
    },

    async checkpointAt(size: number): Promise<string | null> {
      return (await checkpoints.findOne({ _id: size }))?.note ?? null;
    },
  };
}

export type TreeRepository = ReturnType<typeof createTreeRepository>;
