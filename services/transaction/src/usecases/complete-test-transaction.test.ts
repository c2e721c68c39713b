import { describe, expect, it } from 'vitest';
import type { Signer, TxState } from '../domain/transaction.js';
import { testCompletion } from './complete-test-transaction.js';

const at = new Date('2026-11-27T06:00:00Z');
/** A signer as stored (built here: the creation helpers' signature is not this test's subject). */
const newSigner = (index: number, name: string, email: string, token: string, attempts: number): Signer =>
  ({
    index,
    name,
    email,
    token,
    state: 'created',
    verification_mode: 'biometric',
    attempts_left: attempts,
    capture_id: '',
    attempt: 0,
    video_sha256: '',
    frame_sha256: '',
    verified_at: null,
  }) as Signer;
const state = (over: Partial<TxState> = {}): TxState => ({
  status: 'created',
  signers: [newSigner(0, 'Ada', 'ada@example.com', 't0', 3), newSigner(1, 'Bob', 'bob@example.com', 't1', 3)],
  certificate_issued: false,
  reference: 'SIG-TX-00000001',
  ...over,
});

describe('testCompletion (test mode: an outcome without a ceremony)', () => {
  it('verified: every signer passes (assurance test) and the verification goes out once', () => {
    const c = testCompletion(state(), 'verified', at);
    expect(c.status).toBe('capture_accepted');
    expect(c.nowVerified).toBe(true);
    expect(c.signers.every((s) => s.state === 'passed' && s.assurance === 'test' && s.verified_at === at)).toBe(true);
    expect(c.log[0]).toMatchObject({ type: 'test_completed_verified', actor: 'sender' });
  });
  it('failed: the first signer still to pass fails, so the transaction fails; no verification', () => {
    const passed = { ...newSigner(0, 'Ada', 'ada@example.com', 't0', 3), state: 'passed' as const };
    const c = testCompletion(
      state({ status: 'consent_accepted', signers: [passed, newSigner(1, 'Bob', 'b@x.org', 't1', 3)] }),
      'failed',
      at,
    );
    expect(c.status).toBe('failed');
    expect(c.nowVerified).toBe(false);
    expect(c.signers.map((s) => s.state)).toEqual(['passed', 'failed']);
  });
  it('refuses a transaction that has ended', () => {
    for (const status of ['failed', 'cancelled', 'ledger_issued'] as const)
      expect(() => testCompletion(state({ status }), 'verified', at)).toThrow(/cannot complete/);
  });
  it('answers one outcome only: once every signer passed, either outcome again is a conflict', () => {
    const done = testCompletion(state(), 'verified', at);
    const after = state({ status: done.status, signers: done.signers });
    for (const outcome of ['verified', 'failed'] as const) {
      let err: unknown;
      try {
        testCompletion(after, outcome, at);
      } catch (e) {
        err = e;
      }
      expect(err).toMatchObject({ kind: 'conflict', reason: 'TEST_ALREADY_COMPLETED' });
    }
  });
});
