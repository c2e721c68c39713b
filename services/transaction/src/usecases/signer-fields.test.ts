import { describe, expect, it } from 'vitest';
import type { FormField } from '../domain/form-fields.js';
import { newSigner, type Signer, type SignerState } from '../domain/transaction.js';
import type { TransactionRecord } from '../store/transaction.repository.js';
import { submitSignerFields, type SignerFieldsDeps } from './signer-fields.js';

const TOKEN = 'a'.repeat(43);
const place = { page: 1, x: 10, y: 10, width: 50, height: 20 };
const fields: FormField[] = [
  { id: 'name', type: 'text', signer: 0, required: true, places: [place], max_length: 10 },
  { id: 'ok', type: 'checkbox', signer: 1, required: true, places: [{ ...place, x: 100 }] },
];

function record(state: SignerState): TransactionRecord {
  const signers: Signer[] = [
    { ...newSigner(0, 'Ada', 'ada@example.com', TOKEN, 3, { mode: 'liveness' }), state },
    newSigner(1, 'Bob', 'bob@example.com', 'b'.repeat(43), 3, { mode: 'liveness' }),
  ];
  return {
    _id: 7,
    owner_id: 'u1',
    issuer_name: 'Acme',
    reference: 'SIG-TX-00000007',
    status: state === 'created' ? 'created' : 'consent_accepted',
    attestation_type: 'signature',
    document_name: 'c.pdf',
    document_key: 'd',
    document_sha256: 'a'.repeat(64),
    document_size: 1,
    reference_key: '',
    reference_sha256: '',
    commitment_salt: 'salt',
    signers,
    form_fields: fields,
    log: [],
    certificate_issued: false,
    created_at: new Date('2026-01-01T00:00:00Z'),
    verified_at: null,
    last_resent_at: null,
    version: 1,
  };
}

/** An in-memory store with the real conditional write; `beforeWrite` changes the record between read and write. */
function setup(rec: TransactionRecord, beforeWrite?: (r: TransactionRecord) => TransactionRecord) {
  let stored = structuredClone(rec);
  let hook = beforeWrite;
  const outcomes: string[] = [];
  const deps: SignerFieldsDeps = {
    repo: {
      resolveToken: async (t) => (t === TOKEN ? { transaction_id: 7, signer_index: 0 } : null),
      findById: async () => structuredClone(stored),
      findOwned: async () => null,
      update: async (from, set, log) => {
        if (hook) {
          stored = hook(stored);
          hook = undefined;
        }
        if (from.version !== stored.version || from.status !== stored.status) return null;
        stored = { ...stored, ...set, log: [...stored.log, ...log], version: stored.version + 1 };
        return structuredClone(stored);
      },
    },
    tm: { transitions: { inc: () => undefined }, fieldSubmissions: { inc: (l) => void outcomes.push(l.outcome!) } },
    lock: (_id, fn) => fn(),
    outbox: { flush: async () => undefined },
    clock: () => new Date('2026-01-02T10:00:00Z'),
  };
  return { deps, stored: () => stored, outcomes };
}

describe('submitSignerFields', () => {
  it('keeps the values on the signer with an audit-trail entry listing them', async () => {
    const t = setup(record('consent_accepted'));
    await submitSignerFields(t.deps, TOKEN, { values: { name: 'Ada L' } });
    expect(t.stored().signers[0]!.fields).toMatchObject({ values: { name: 'Ada L' } });
    expect(t.stored().log).toMatchObject([
      { type: 'fields_submitted', actor: 'signer', detail: 'ada@example.com filled their fields: name="Ada L"' },
    ]);
    expect(t.outcomes).toEqual(['accepted']);
  });

  it('refuses once a capture of the signer was accepted (409), nothing kept', async () => {
    for (const state of ['capture_accepted', 'passed', 'failed'] as const) {
      const t = setup(record(state));
      await expect(submitSignerFields(t.deps, TOKEN, { values: { name: 'Ada' } })).rejects.toMatchObject({
        reason: 'FIELDS_CLOSED',
      });
      expect(t.stored().signers[0]!.fields).toBeUndefined();
      expect(t.outcomes).toEqual(['closed']);
    }
  });

  it('refuses when a capture is accepted between the read and the write (the change is computed again)', async () => {
    const t = setup(record('consent_accepted'), (r) => ({
      ...r,
      version: r.version + 1,
      signers: r.signers.map((s, i) => (i === 0 ? { ...s, state: 'capture_accepted' } : s)),
    }));
    await expect(submitSignerFields(t.deps, TOKEN, { values: { name: 'Ada' } })).rejects.toMatchObject({
      reason: 'FIELDS_CLOSED',
    });
    expect(t.stored().signers[0]!.fields).toBeUndefined();
    expect(t.stored().log).toEqual([]);
  });

  it('counts a refused value as invalid and keeps nothing', async () => {
    const t = setup(record('created'));
    await expect(submitSignerFields(t.deps, TOKEN, { values: { name: 'x'.repeat(11) } })).rejects.toMatchObject({
      reason: 'INVALID_FIELD',
    });
    expect(t.stored().signers[0]!.fields).toBeUndefined();
    expect(t.outcomes).toEqual(['invalid']);
  });
});
