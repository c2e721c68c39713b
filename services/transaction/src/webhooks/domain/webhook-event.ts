import { createHash, randomBytes } from 'node:crypto';
import { assuranceMeaning, lowestAssurance, type AssuranceLevel } from '@signet/kit';
import { isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@signet/proto';

// The event types a customer endpoint can subscribe to (issue 18 item 6): the contract's list.
export { isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType };

/**
 * One fact to announce, from one internal event (events/webhook-sources.ts): `key` is unique per
 * fact and stable across redeliveries of that internal event (its event id, plus the signer when one
 * event makes several facts), so a redelivered event makes the same deliveries and no new ones.
 */
export type WebhookFact = {
  key: string;
  type: WebhookEventType;
  occurredAt: string;
  transactionId: number;
  /** The certificate reference when the internal event carries it: an event of another database naming the same id is ignored. */
  reference?: string;
  /**
   * The transaction's owner when the internal event carries it: the owner's endpoints are looked up
   * first, and the record is read only when one subscribes (most owners have none).
   */
  ownerId?: string;
  signerIndex?: number;
  /** Fields the internal event adds (certificate leaf index, link kind), never secrets or media. */
  extra?: Record<string, string | number>;
};

/** What a payload may say of a transaction: ids and the latest state, never faces, documents or tokens. */
export type TransactionState = {
  id: number;
  reference: string;
  status: string;
  /** Made with a test-mode key: the payload says so, so a receiver can keep it apart from live data. */
  test: boolean;
  created_at: Date;
  verified_at: Date | null;
  /** Each signer's achieved assurance (domain/assurance.ts): null until the signer passed. */
  signers: { index: number; name: string; email: string; state: string; assurance?: AssuranceLevel | null }[];
};

/** A level with the sentence of what it proves (both null: not reached yet). */
const withMeaning = (level: AssuranceLevel | null | undefined) => ({
  assurance: level ?? null,
  assurance_meaning: level ? assuranceMeaning(level) : null,
});

/** The transaction's level once every signer passed: the weakest signer's, as its certificate states it. */
const transactionAssurance = (signers: TransactionState['signers']) =>
  withMeaning(signers.every((s) => s.assurance) ? lowestAssurance(signers.map((s) => s.assurance!)) : null);

/** The webhook-id of a fact: the same on every attempt and for every endpoint (Standard Webhooks' message id). */
export const webhookIdOf = (factKey: string) => `msg_${createHash('sha256').update(factKey).digest('base64url').slice(0, 27)}`;

/** The id of the one delivery of a fact to an endpoint. */
export const deliveryIdOf = (factKey: string, endpointId: string) =>
  `wd_${createHash('sha256').update(`${factKey}\n${endpointId}`).digest('base64url').slice(0, 27)}`;

export const newEndpointId = () => `we_${randomBytes(12).toString('base64url')}`;

/** A Standard Webhooks secret: whsec_ + base64 of 32 random bytes. */
export const newEndpointSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The JSON body of a fact (Standard Webhooks' recommended envelope: type, timestamp, data). The
 * transaction is the state read when the fact was recorded; the signer named by the fact is copied
 * out as `data.signer`. No token, document, photo or capture is ever read into it.
 */
export function webhookPayload(fact: WebhookFact, tx: TransactionState): string {
  const signers = tx.signers.map((s) => ({
    index: s.index,
    name: s.name,
    email: s.email,
    state: s.state,
    ...withMeaning(s.assurance),
  }));
  const signer = fact.signerIndex === undefined ? undefined : signers.find((s) => s.index === fact.signerIndex);
  return JSON.stringify({
    type: fact.type,
    timestamp: fact.occurredAt,
    data: {
      transaction: {
        id: tx.id,
        reference: tx.reference,
        status: tx.status,
        test: tx.test,
        created_at: tx.created_at.toISOString(),
        verified_at: tx.verified_at ? tx.verified_at.toISOString() : null,
        ...transactionAssurance(tx.signers),
        signers,
      },
      ...(signer ? { signer } : {}),
      ...(fact.extra ?? {}),
    },
  });
}
