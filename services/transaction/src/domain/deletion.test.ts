import { describe, expect, it } from 'vitest';
import { deletionRefusal, endedAt, holdReason, storedKeys, tombstone, type Deletable } from './deletion.js';
import { keyDigest } from './retention.js';
import { newSigner, type LogEntry } from './transaction.js';

const at = new Date('2026-11-27T10:00:00Z');
const log: LogEntry[] = [
  { type: 'created', at: new Date('2026-11-20T10:00:00Z'), actor: 'sender', detail: 'created for 2 signer(s)' },
  {
    type: 'consent_accepted',
    at: new Date('2026-11-20T11:00:00Z'),
    actor: 'signer:0',
    detail: 'ada@example.com accepted consent',
  },
  { type: 'status_changed', at: new Date('2026-11-21T10:00:00Z'), actor: 'system', detail: 'capture_accepted → ledger_issued' },
  {
    type: 'media_erased',
    at: new Date('2026-11-22T10:00:00Z'),
    actor: 'system',
    detail: 'signer 0: 2 capture object(s); reason retention',
  },
];

function record(): Deletable {
  const a = newSigner(0, 'Ada Lovelace', 'ada@example.com', 'tok-a', 3, {
    mode: 'biometric',
    reference: { key: 'refs/a', sha256: 'ra' },
  });
  const b = newSigner(1, 'Grace Hopper', 'grace@example.com', 'tok-b', 3, { mode: 'liveness' });
  return {
    document_key: 'docs/1',
    reference_key: 'refs/a',
    signers: [
      { ...a, state: 'passed', video_sha256: 'v0', frame_sha256: 'f0' },
      { ...b, decline_reason: 'I do not agree', trail: { ip: '10.0.0.1' } } as typeof b,
    ],
    viewers: [{ name: 'Carol', email: 'carol@example.com', order: 2 }],
    log,
    biometrics_erased_at: null,
  };
}

describe('deleting a whole transaction', () => {
  it('refuses a pending or held transaction, allows an ended one', () => {
    expect(deletionRefusal({ status: 'consent_accepted' })?.message).toMatch(/still in progress; cancel it first/);
    expect(deletionRefusal({ status: 'created' })?.reason).toBe('TRANSACTION_PENDING');
    const held = deletionRefusal({ status: 'ledger_issued', legal_hold: { since: at, reason: 'audit', by: 'sender' } });
    expect(held?.reason).toBe('LEGAL_HOLD');
    expect(held?.message).toContain('legal hold since 2026-11-27T10:00:00.000Z');
    for (const status of ['ledger_issued', 'failed', 'cancelled', 'declined', 'expired'])
      expect(deletionRefusal({ status, legal_hold: null })).toBeNull();
  });

  it('names every stored object once: the document and each reference photo', () => {
    expect(storedKeys(record())).toEqual(['docs/1', 'refs/a']);
    expect(storedKeys({ document_key: '', reference_key: '', signers: [] })).toEqual([]);
  });

  it('keeps a tombstone without names, e-mails, tokens, keys or log details; the proof entries stay', () => {
    const t = tombstone(record(), at);
    expect(t.deleted_at).toEqual(at);
    expect(t.ended_at).toEqual(new Date('2026-11-21T10:00:00Z'));
    expect(t.biometrics_erased_at).toEqual(at);
    expect(t.viewers).toEqual([]);
    const text = JSON.stringify(t);
    for (const personal of [
      'Ada',
      'Grace',
      'ada@',
      'grace@',
      'carol@',
      'tok-a',
      'tok-b',
      'docs/1',
      'refs/a',
      'I do not agree',
      '10.0.0.1',
    ])
      expect(text).not.toContain(personal);
    // what the certificate commits to stays
    expect(t.signers[0]).toMatchObject({
      index: 0,
      state: 'passed',
      video_sha256: 'v0',
      frame_sha256: 'f0',
      reference_sha256: 'ra',
    });
    expect(t.log.map((e) => e.type)).toEqual([
      'created',
      'consent_accepted',
      'status_changed',
      'media_erased',
      'transaction_deleted',
    ]);
    expect(t.log[1]!.detail).toBe('removed when the transaction was deleted');
    expect(t.log[3]!.detail).toBe(log[3]!.detail);
    const last = t.log.at(-1)!;
    expect(last).toMatchObject({ at, actor: 'sender' });
    expect(last.detail).toContain(`2 stored object(s) (key sha256 ${keyDigest('docs/1')}, ${keyDigest('refs/a')})`);
    expect(last.detail).toMatch(/reason sender$/);
  });

  it('keeps an earlier erasure time', () => {
    const erased = new Date('2026-11-25T00:00:00Z');
    expect(tombstone({ ...record(), biometrics_erased_at: erased }, at).biometrics_erased_at).toEqual(erased);
  });

  it('ended at the last status change; none: null', () => {
    expect(endedAt([])).toBeNull();
  });

  it('takes a hold reason of one line up to 500 characters', () => {
    expect(holdReason(undefined)).toBe('');
    expect(holdReason('  litigation 2026-17  ')).toBe('litigation 2026-17');
    expect(() => holdReason('x'.repeat(501))).toThrow(/at most 500/);
    expect(() => holdReason('a\nb')).toThrow(/one line/);
  });
});
