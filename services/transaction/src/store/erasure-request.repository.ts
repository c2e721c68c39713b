import type { Connection } from 'mongoose';
import type { ErasureRequest } from '../domain/retention.js';
import type { LogEntry } from '../domain/transaction.js';
import type { TransactionRecord } from './transaction.schema.js';

/**
 * Signers' erasure requests, on the transaction record itself (field `erasure_request`): the first
 * request is recorded in one conditional update with its log entry and the earlier deletion date, so
 * two requests at once record one; the sender's notice is marked once mailed.
 */
/** What the request needs of a transaction. */
export type ErasureSubject = Pick<
  TransactionRecord,
  | '_id'
  | 'owner_id'
  | 'reference'
  | 'status'
  | 'signers'
  | 'issuer_name'
  | 'document_name'
  | 'sender_email'
  | 'test'
  | 'biometrics_delete_after'
  | 'biometrics_erased_at'
  | 'erasure_request'
  | 'legal_hold'
>;

export interface ErasureRequestRepository {
  find(id: number): Promise<ErasureSubject | null>;
  record(id: number, request: ErasureRequest, deleteAfter: Date, entry: LogEntry): Promise<boolean>;
  markSenderNotified(id: number, at: Date): Promise<void>;
}

export function createErasureRequestRepository(conn: Connection): ErasureRequestRepository {
  const transactions = () => conn.collection<TransactionRecord>('transactions');
  return {
    async find(id: number) {
      return transactions().findOne<ErasureSubject>(
        { _id: id },
        {
          projection: {
            _id: 1,
            owner_id: 1,
            reference: 1,
            status: 1,
            signers: 1,
            issuer_name: 1,
            document_name: 1,
            sender_email: 1,
            test: 1,
            biometrics_delete_after: 1,
            biometrics_erased_at: 1,
            erasure_request: 1,
            legal_hold: 1,
          },
        },
      );
    },
    /** Records the first request; false when one is already recorded or the data is already erased. */
    async record(id: number, request: ErasureRequest, deleteAfter: Date, entry: LogEntry): Promise<boolean> {
      const r = await transactions().updateOne(
        { _id: id, erasure_request: null, biometrics_erased_at: null },
        { $set: { erasure_request: request, biometrics_delete_after: deleteAfter }, $push: { log: entry }, $inc: { version: 1 } },
      );
      return r.modifiedCount === 1;
    },
    async markSenderNotified(id: number, at: Date): Promise<void> {
      await transactions().updateOne({ _id: id }, { $set: { 'erasure_request.sender_notified_at': at } });
    },
  };
}
