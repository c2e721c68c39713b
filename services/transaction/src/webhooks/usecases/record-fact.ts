import { achievedSignerAssurance } from '../../domain/assurance.js';
import type { TransactionRepository } from '../../store/transaction.repository.js';
import { deliveryIdOf, webhookIdOf, webhookPayload, type WebhookFact } from '../domain/webhook-event.js';
import type { WebhookRepository } from '../store/webhook.repository.js';
import { modeOf, modeOfTransaction } from '../domain/mode.js';

export type RecordFactDeps = {
  store: WebhookRepository;
  repo: Pick<TransactionRepository, 'findById'>;
  clock: () => Date;
};

/** Events carry integer ids; one from another database (a shared stream) may name an id of ours. */
const SKEW_MS = 2000;
function aboutThis(fact: WebhookFact, tx: { reference: string; created_at: Date }): boolean {
  if (fact.reference && fact.reference !== tx.reference) return false;
  return new Date(fact.occurredAt).getTime() >= new Date(tx.created_at).getTime() - SKEW_MS;
}

/**
 * Records one delivery per subscribed endpoint of the transaction's owner and mode, due now, with the
 * transaction's latest state as the payload. Idempotent: a delivery's id is derived from the fact
 * and the endpoint, so a redelivered internal event records nothing new. Returns how many endpoints
 * the fact goes to. When the fact names the owner, the owner's endpoints are looked up first and the
 * record is read only if one subscribes: a creation's two facts cost no read of the record for the
 * owners (most of them) that have no endpoint.
 */
export async function recordFact(deps: RecordFactDeps, fact: WebhookFact): Promise<number> {
  const occurredAt = new Date(fact.occurredAt);
  const named = fact.ownerId ? await deps.store.subscribers(fact.ownerId, fact.type, occurredAt) : null;
  if (named && !named.length) return 0;
  const tx = await deps.repo.findById(fact.transactionId);
  if (!tx || !aboutThis(fact, tx)) return 0;
  // An event naming another owner is not about this record (another database's id).
  if (fact.ownerId && fact.ownerId !== tx.owner_id) return 0;
  // Mode is part of ownership: a live transaction's events go to live endpoints only, a test one's to test ones.
  const mode = modeOfTransaction(tx);
  const targets = (named ?? (await deps.store.subscribers(tx.owner_id, fact.type, occurredAt))).filter(
    (ep) => modeOf(ep) === mode,
  );
  if (!targets.length) return 0;
  const payload = webhookPayload(fact, {
    id: tx._id,
    reference: tx.reference,
    status: tx.status,
    test: tx.test === true,
    created_at: new Date(tx.created_at),
    verified_at: tx.verified_at ? new Date(tx.verified_at) : null,
    signers: tx.signers.map((s) => ({
      index: s.index,
      name: s.name,
      email: s.email,
      state: s.state,
      assurance: achievedSignerAssurance(s) ?? null,
    })),
  });
  const now = deps.clock();
  for (const ep of targets) {
    await deps.store.recordDelivery({
      _id: deliveryIdOf(fact.key, ep._id),
      endpoint_id: ep._id,
      owner_id: tx.owner_id,
      webhook_id: webhookIdOf(fact.key),
      event_type: fact.type,
      transaction_id: tx._id,
      payload,
      status: 'pending',
      round_attempts: 0,
      next_attempt_at: now,
      lease: null,
      lease_until: null,
      attempts: [],
      created_at: now,
    });
  }
  return targets.length;
}
