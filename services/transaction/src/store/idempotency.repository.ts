import type { Connection } from 'mongoose';
import { isDuplicateKey } from '@signet/kit';
import { idempotencySchema, type IdempotencyRecord } from './transaction.schema.js';

/** Idempotency-Key records of creation: one per (account, key), claimed race-free. Part of the transaction repository. */
export function createIdempotencyStore(conn: Connection) {
  const idempotency = conn.model('IdempotencyKey', idempotencySchema);
  return {
    idempotency,
    async findKey(ownerId: string, key: string): Promise<IdempotencyRecord | null> {
      return idempotency.findOne({ owner_id: ownerId, key }).lean<IdempotencyRecord>();
    },
    async claimKey(ownerId: string, key: string, fingerprint: string): Promise<boolean> {
      try {
        await idempotency.create({ owner_id: ownerId, key, fingerprint, state: 'pending', result: null, created_at: new Date() });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
        throw err;
      }
    },
    async completeKey(ownerId: string, key: string, result: Record<string, unknown>): Promise<void> {
      await idempotency.updateOne({ owner_id: ownerId, key }, { $set: { state: 'done', result } });
    },
    async releaseKey(rec: Pick<IdempotencyRecord, '_id'>): Promise<void> {
      await idempotency.deleteOne({ _id: rec._id });
    },
    async releaseKeyOf(ownerId: string, key: string): Promise<void> {
      await idempotency.deleteOne({ owner_id: ownerId, key, state: 'pending' });
    },
  };
}
