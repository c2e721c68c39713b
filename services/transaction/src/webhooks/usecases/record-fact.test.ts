import { describe, expect, it } from 'vitest';
import type { TransactionRecord } from '../../store/transaction.repository.js';
import type { WebhookFact } from '../domain/webhook-event.js';
import type { DeliveryRecord, WebhookRepository } from '../store/webhook.repository.js';
import { recordFact } from './record-fact.js';

const at = '2026-11-27T05:00:00.000Z';
const tx = {
  _id: 7,
  owner_id: 'u1',
  reference: 'SIG-TX-7',
  status: 'created',
  created_at: new Date('2026-11-27T04:59:59.000Z'),
  verified_at: null,
  signers: [{ index: 0, name: 'A', email: 'a@example.com', state: 'created' }],
} as unknown as TransactionRecord;

/** An owner's endpoints (`we_t…` ones are test endpoints) and a record, counting the reads of each. */
function setup(endpointsOf: Record<string, string[]>, record: TransactionRecord = tx) {
  const reads = { record: 0, endpoints: [] as string[] };
  const recorded: DeliveryRecord[] = [];
  const deps = {
    repo: {
      async findById(id: number) {
        reads.record++;
        return id === record._id ? record : null;
      },
    },
    store: {
      async subscribers(ownerId: string) {
        reads.endpoints.push(ownerId);
        // A live endpoint made before modes has none stored.
        return (endpointsOf[ownerId] ?? []).map((_id) => (_id.startsWith('we_t') ? { _id, mode: 'test' } : { _id }));
      },
      async recordDelivery(d: DeliveryRecord) {
        recorded.push(d);
      },
    } as unknown as WebhookRepository,
    clock: () => new Date(at),
  };
  return { deps, reads, recorded };
}
const fact = (over: Partial<WebhookFact> = {}): WebhookFact => ({
  key: 'ev-1',
  type: 'transaction.created',
  occurredAt: at,
  transactionId: 7,
  reference: 'SIG-TX-7',
  ...over,
});

describe('recordFact', () => {
  it('does not read the record when the named owner has no endpoint', async () => {
    const { deps, reads, recorded } = setup({});
    expect(await recordFact(deps, fact({ ownerId: 'u1' }))).toBe(0);
    expect(reads).toEqual({ record: 0, endpoints: ['u1'] });
    expect(recorded).toHaveLength(0);
  });

  it('records a delivery per endpoint of the named owner, the endpoints read once', async () => {
    const { deps, reads, recorded } = setup({ u1: ['we_a', 'we_b'] });
    expect(await recordFact(deps, fact({ ownerId: 'u1' }))).toBe(2);
    expect(reads).toEqual({ record: 1, endpoints: ['u1'] });
    expect(recorded.map((d) => [d.endpoint_id, d.owner_id, d.transaction_id])).toEqual([
      ['we_a', 'u1', 7],
      ['we_b', 'u1', 7],
    ]);
    expect(JSON.parse(recorded[0]!.payload)).toMatchObject({ type: 'transaction.created', data: { transaction: { id: 7 } } });
  });

  it('ignores a fact whose named owner or reference is not the record’s (another database’s id)', async () => {
    const { deps, recorded } = setup({ u2: ['we_x'], u1: ['we_a'] });
    expect(await recordFact(deps, fact({ ownerId: 'u2' }))).toBe(0);
    expect(await recordFact(deps, fact({ ownerId: 'u1', reference: 'SIG-TX-OTHER' }))).toBe(0);
    expect(recorded).toHaveLength(0);
  });

  it('reads the record first, as before, when the fact does not name the owner', async () => {
    const { deps, reads } = setup({ u1: ['we_a'] });
    expect(await recordFact(deps, fact({ type: 'signer.consented', signerIndex: 0 }))).toBe(1);
    expect(reads).toEqual({ record: 1, endpoints: ['u1'] });
    expect(await recordFact(deps, fact({ transactionId: 8 }))).toBe(0);
    expect(reads.endpoints).toEqual(['u1']);
  });

  it('sends a live transaction’s events to live endpoints only, a test one’s to test endpoints only', async () => {
    const live = setup({ u1: ['we_live', 'we_test'] });
    expect(await recordFact(live.deps, fact({ ownerId: 'u1' }))).toBe(1);
    expect(live.recorded.map((d) => d.endpoint_id)).toEqual(['we_live']);
    const test = setup({ u1: ['we_live', 'we_test'] }, { ...tx, test: true } as TransactionRecord);
    expect(await recordFact(test.deps, fact({ ownerId: 'u1' }))).toBe(1);
    expect(test.recorded.map((d) => d.endpoint_id)).toEqual(['we_test']);
    expect(JSON.parse(test.recorded[0]!.payload)).toMatchObject({ data: { transaction: { test: true } } });
    const none = setup({ u1: ['we_live'] }, { ...tx, test: true } as TransactionRecord);
    expect(await recordFact(none.deps, fact({ type: 'signer.consented', signerIndex: 0 }))).toBe(0);
    expect(none.recorded).toHaveLength(0);
  });
});
