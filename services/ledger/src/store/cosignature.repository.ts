/**
 * Witness cosignatures, stored with the checkpoint they sign: the documents of `ledger_checkpoints`
 * (`_id` = tree size, `note` = the log-signed checkpoint, `at`; see tree.repository.ts) gain
 * `cosig.<witness key id hex>` = the witness's signature line and `cosig_n` = how many witnesses
 * signed. A cosignature is added once per witness (the filter holds it absent), so `cosig_n` counts
 * distinct witnesses; only verified lines reach this store (log/cosign.ts checks them first).
 */
import type { Connection } from 'mongoose';

type CheckpointDoc = { _id: number; note: string; at: Date; cosig?: Record<string, string>; cosig_n?: number };

export type StoredCheckpoint = { size: number; note: string; at: Date; cosignatures: Record<string, string> };

const toStored = (d: CheckpointDoc): StoredCheckpoint => ({ size: d._id, note: d.note, at: d.at, cosignatures: d.cosig ?? {} });

export function createCosignatureRepository(conn: Connection) {
  const checkpoints = conn.collection<CheckpointDoc>('ledger_checkpoints');
  return {
    async init() {
      // "The newest checkpoint with enough cosignatures": a descending walk of this index.
      await checkpoints.createIndex({ cosig_n: -1, _id: -1 });
    },

    /** Adds a witness's cosignature line to the checkpoint of `size`; false when it was there already. */
    async add(size: number, kid: string, line: string): Promise<boolean> {
      const r = await checkpoints.updateOne(
        { _id: size, [`cosig.${kid}`]: { $exists: false } },
        { $set: { [`cosig.${kid}`]: line }, $inc: { cosig_n: 1 } },
      );
      return r.modifiedCount === 1;
    },

    async at(size: number): Promise<StoredCheckpoint | null> {
      const d = await checkpoints.findOne({ _id: size });
      return d ? toStored(d) : null;
    },

    /** The largest size this witness cosigned, 0 when none. */
    async lastCosignedBy(kid: string): Promise<number> {
      const d = await checkpoints
        .find({ [`cosig.${kid}`]: { $exists: true } }, { projection: { _id: 1 } })
        .sort({ _id: -1 })
        .limit(1)
        .toArray();
      return d[0]?._id ?? 0;
    },

    /**
     * The newest checkpoint that `quorum` of these witnesses cosigned, or null. Candidates come newest
     * first among those with at least `quorum` cosignatures of any witness; the configured ones are counted.
     */
    async newestWithQuorum(kids: string[], quorum: number): Promise<StoredCheckpoint | null> {
      const cursor = checkpoints.find({ cosig_n: { $gte: quorum } }).sort({ _id: -1 });
      for await (const d of cursor) {
        const cosig = d.cosig ?? {};
        if (kids.filter((k) => cosig[k]).length >= quorum) {
          await cursor.close();
          return toStored(d);
        }
      }
      return null;
    },

    /** The oldest checkpoint larger than `size` (when it was signed), or null. */
    async firstAfter(size: number): Promise<StoredCheckpoint | null> {
      const d = await checkpoints
        .find({ _id: { $gt: size } })
        .sort({ _id: 1 })
        .limit(1)
        .toArray();
      return d[0] ? toStored(d[0]) : null;
    },

    /** Checkpoints with from ≤ size ≤ to, by size, at most `limit`. */
    async range(from: number, to: number, limit: number): Promise<StoredCheckpoint[]> {
      const docs = await checkpoints
        .find({ _id: { $gte: from, $lte: to } })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray();
      return docs.map(toStored);
    },
  };
}

export type CosignatureRepository = ReturnType<typeof createCosignatureRepository>;
