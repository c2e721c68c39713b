import type { Model } from 'mongoose';

/** The two fields of a record that hold a claim on it: who holds it and until when. */
export type LeaseFields = { holder: string; until: string };

/**
 * Claims a record for `holder` until `until`, when it matches `filter` and no other claim still holds:
 * one replica works on it at a time, and a killed one's claim expires. The state that says whether the
 * work is still to do lives on the record, so a restart or another replica picks it up later. Used by
 * the biometric erasure job and the lifecycle timer job. The record as claimed (without its outbox), or null.
 */
export async function claimLease<T>(
  model: Model<any>,
  fields: LeaseFields,
  id: number,
  filter: Record<string, unknown>,
  claim: { holder: string; now: Date; until: Date },
): Promise<T | null> {
  const doc = await model
    .findOneAndUpdate(
      { _id: id, $and: [filter, { $or: [{ [fields.until]: null }, { [fields.until]: { $lte: claim.now } }] }] },
      { $set: { [fields.holder]: claim.holder, [fields.until]: claim.until } },
      { new: true },
    )
    .lean<T & { outbox?: unknown }>();
  if (!doc) return null;
  const { outbox: _outbox, ...rec } = doc;
  return rec as T;
}

/** Gives a claim up early (the work is done, or left for the next pass); a claim taken over meanwhile is left alone. */
export async function releaseLease(model: Model<any>, fields: LeaseFields, id: number, holder: string): Promise<void> {
  await model.updateOne({ _id: id, [fields.holder]: holder }, { $set: { [fields.holder]: null, [fields.until]: null } });
}
