import { describe, expect, it } from 'vitest';
import type { Connection } from 'mongoose';
import { ContentionError } from '@signet/kit';
import { createTreeRepository } from './tree.repository.js';

/** A store where every leaf index is always already taken by another writer, and never by this reference. */
function alwaysTaken(): { conn: Connection; inserts: () => number } {
  let inserts = 0;
  const leaves = {
    insertMany: async () => {
      inserts++;
      throw Object.assign(new Error('E11000 duplicate key error'), { code: 11000 });
    },
    findOne: async () => null,
    find: () => ({ sort: () => ({ limit: () => ({ toArray: async () => [{ _id: inserts }] }) }) }),
  };
  const conn = { collection: (name: string) => (name === 'ledger_leaves' ? leaves : {}) } as unknown as Connection;
  return { conn, inserts: () => inserts };
}

describe('claiming a leaf index', () => {
  it('gives up under endless contention with a retryable error, not an internal one', async () => {
    const { conn, inserts } = alwaysTaken();
    const repo = createTreeRepository(conn);
    const item = { reference: 'SIG-TX-00000001', leaf: 'leaf', hash: Buffer.alloc(32) };
    const err = await repo.claimLeaves([item], 0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContentionError);
    expect((err as ContentionError).reason).toBe('CONTENTION');
    expect(inserts()).toBe(50);
  });
});
