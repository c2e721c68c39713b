import type { Connection } from 'mongoose';

type SessionDoc = {
  _id: string;
  transaction_id: number;
  consent?: { ip?: string } | null;
  captures?: unknown[];
};

/**
 * What the ceremony keeps of a deleted transaction's signers beyond the capture media (those go
 * through the erasure path): the signer's e-mail on each session, the address and browser recorded
 * with consent and with each capture, and the forensic batches (client events with address and
 * browser). Field by field (`captures.<i>.ip`), so a concurrent media erasure rewriting the capture
 * records is never undone. Repeating it changes nothing.
 */
export function createSessionDeletionStore(conn: Connection) {
  const sessions = () => conn.collection<SessionDoc>('sessions');
  const forensic = () => conn.collection<{ session_id: string }>('forensic_batches');
  return {
    /** Blanks the sessions' personal data and drops their forensic batches; the number of sessions. */
    async scrubTransaction(transactionId: number, at: Date): Promise<number> {
      const docs = await sessions()
        .find({ transaction_id: transactionId }, { projection: { _id: 1, consent: 1, captures: 1 } })
        .toArray();
      for (const d of docs) {
        const set: Record<string, unknown> = { signer_email: '', personal_data_deleted_at: at };
        if (d.consent) Object.assign(set, { 'consent.ip': '', 'consent.user_agent': '' });
        (d.captures ?? []).forEach((_, i) => Object.assign(set, { [`captures.${i}.ip`]: '', [`captures.${i}.user_agent`]: '' }));
        await sessions().updateOne({ _id: d._id }, { $set: set });
      }
      if (docs.length) await forensic().deleteMany({ session_id: { $in: docs.map((d) => d._id) } });
      return docs.length;
    },
  };
}

export type SessionDeletionStore = ReturnType<typeof createSessionDeletionStore>;
