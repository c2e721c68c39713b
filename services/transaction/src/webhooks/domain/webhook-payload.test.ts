import { describe, expect, it } from 'vitest';
import { ASSURANCE_MEANINGS } from '@signet/kit';
import { webhookPayload, type TransactionState } from './webhook-event.js';

const tx = (signers: TransactionState['signers']): TransactionState => ({
  id: 7,
  reference: 'ACM-TX-00000007',
  status: 'capture_accepted',
  test: false,
  created_at: new Date('2026-11-28T10:00:00Z'),
  verified_at: null,
  signers,
});
const fact = { key: 'k', type: 'signer.verified' as const, occurredAt: '2026-11-28T10:05:00Z', transactionId: 7, signerIndex: 1 };
const data = (t: TransactionState) =>
  (
    JSON.parse(webhookPayload(fact, t)) as {
      data: { transaction: Record<string, unknown> & { signers: Record<string, unknown>[] }; signer: Record<string, unknown> };
    }
  ).data;

describe('webhook payloads carry the achieved assurance (issue 30)', () => {
  it('per signer with its sentence once passed, null before; the transaction’s only once every signer passed', () => {
    const d = data(
      tx([
        { index: 0, name: 'Ada', email: 'a@example.com', state: 'capture_accepted', assurance: null },
        { index: 1, name: 'Bob', email: 'b@example.com', state: 'passed', assurance: 'live+webauthn' },
      ]),
    );
    expect(d.signer).toMatchObject({
      index: 1,
      assurance: 'live+webauthn',
      assurance_meaning: ASSURANCE_MEANINGS['live+webauthn'],
    });
    expect(d.transaction.signers[0]).toMatchObject({ assurance: null, assurance_meaning: null });
    expect(d.transaction).toMatchObject({ assurance: null, assurance_meaning: null });
  });

  it('gives the transaction its weakest signer’s level when all passed', () => {
    const d = data(
      tx([
        { index: 0, name: 'Ada', email: 'a@example.com', state: 'passed', assurance: 'live' },
        { index: 1, name: 'Bob', email: 'b@example.com', state: 'passed', assurance: 'recorded' },
      ]),
    );
    expect(d.transaction).toMatchObject({ assurance: 'recorded', assurance_meaning: ASSURANCE_MEANINGS.recorded });
  });
});
