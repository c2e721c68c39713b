import type { Connection, mongo } from 'mongoose';
import { isDuplicateKey } from '@signet/kit';
import { linkMailId, linkMailSchema, type LinkMailKey } from './transaction.schema.js';

/** The signing-link mails handled, one record per mail (events/link-mail.consumer.ts). Part of the transaction repository. */
export function createLinkMailStore(conn: Connection) {
  const linkMails = conn.model('LinkMail', linkMailSchema);
  return {
    async initLinkMails() {
      await linkMails.init();
    },
    /** Through the driver: every signing-link mail asks it, and mongoose's query machinery was CPU only (issue 20). */
    async linkMailResult(k: LinkMailKey): Promise<string | null> {
      const filter: mongo.Document = { _id: linkMailId(k) };
      const doc = await linkMails.collection.findOne<{ result: string }>(filter);
      return doc?.result ?? null;
    },
    /** The mails handled for one transaction, oldest first (for its timeline). */
    async linkMailsOf(transactionId: number): Promise<(LinkMailKey & { result: string; at: Date })[]> {
      const docs = await linkMails
        .find({ transaction_id: transactionId }, { _id: 0 })
        .lean<(LinkMailKey & { result: string; at: Date })[]>();
      return docs.sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime());
    },
    /** Records that a mail was handled (idempotent: a second write of the same key changes nothing). */
    async recordLinkMail(k: LinkMailKey, result: 'sent' | 'rejected'): Promise<void> {
      try {
        // Through the driver, with the schema's fields named (mongoose would drop any other key of k).
        const doc: Record<string, unknown> = {
          _id: linkMailId(k),
          transaction_id: k.transaction_id,
          signer_index: k.signer_index,
          kind: k.kind,
          round: k.round,
          result,
          at: new Date(),
        };
        await linkMails.collection.insertOne(doc);
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    },
  };
}
