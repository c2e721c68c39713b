import type { Connection } from 'mongoose';

/** What deleting a transaction removes beyond its record: the signing tokens that pointed to it. */
export function createDeletionStore(conn: Connection) {
  const tokens = () => conn.collection<{ _id: string; transaction_id: number }>('signing_tokens');
  return {
    /** Drops the transaction's signing tokens (their links then resolve to nothing); none left is no error. */
    async dropTokens(transactionId: number): Promise<number> {
      return (await tokens().deleteMany({ transaction_id: transactionId })).deletedCount;
    },
  };
}

export type DeletionStore = ReturnType<typeof createDeletionStore>;
