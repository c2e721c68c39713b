import { describe, expect, it } from 'vitest';
import { applyCapture, applyCertificate, applyConsent, applyForfeit, applyVerdict } from './ceremony-steps.js';
import { deriveStatus, type Signer, type TxState } from './transaction.js';

const signer = (index: number, over: Partial<Signer> = {}): Signer => ({
  index,
  name: `s${index}`,
  email: `s${index}@example.com`,
  token: `t${index}`,
  state: 'created',
  verification_mode: index === 0 ? 'biometric' : 'liveness',
  attempts_left: 3,
  capture_id: '',
  attempt: 0,
  video_sha256: '',
  frame_sha256: '',
  verified_at: null,
  ...over,
});
const tx = (signers: Signer[], status: TxState['status'] = deriveStatus(signers, false)): TxState => ({
  status,
  signers,
  certificate_issued: false,
  reference: 'SIG-TX-00000001',
});
const at = new Date('2026-01-01T00:00:00Z');

describe('deriveStatus (DESIGN §3)', () => {
  it.each([
    [['created', 'created'], false, 'created'],
    [['consent_accepted', 'created'], false, 'consent_accepted'],
    [['capture_accepted', 'created'], false, 'consent_accepted'],
    [['capture_accepted', 'passed'], false, 'capture_accepted'],
    [['passed', 'passed'], false, 'capture_accepted'],
    [['passed', 'passed'], true, 'ledger_issued'],
    [['failed', 'passed'], false, 'failed'],
  ] as const)('%j (certificate %s) → %s', (states, cert, expected) => {
    expect(
      deriveStatus(
        states.map((state) => ({ state })),
        cert,
      ),
    ).toBe(expected);
  });
});

describe('transitions', () => {
  it('consent once; a second consent changes nothing', () => {
    const c = applyConsent(tx([signer(0)]), 0, at)!;
    expect(c.status).toBe('consent_accepted');
    expect(applyConsent(tx(c.signers), 0, at)).toBeNull();
  });

  it('capture only from a live challenge (consent_accepted)', () => {
    const ev = { index: 0, capture_id: 'c1', attempt: 1, video_sha256: 'v', frame_sha256: 'f' };
    expect(applyCapture(tx([signer(0)]), ev, at)).toBeNull();
    expect(applyCapture(tx([signer(0, { state: 'consent_accepted' })]), ev, at)!.status).toBe('capture_accepted');
  });

  it('a forfeited attempt (too many challenge draws) costs one attempt, once; the last one fails the signer', () => {
    const ev = { index: 0, capture_id: 'f1', attempt: 1, reason: 'challenge_redraws' };
    const c = applyForfeit(tx([signer(0, { state: 'consent_accepted' })]), ev, at)!;
    expect(c.signers[0]).toMatchObject({ state: 'consent_accepted', attempts_left: 2 });
    expect(c.log[0]!.type).toBe('attempt_forfeited');
    expect(c.log[0]!.detail).toMatch(/challenge_redraws/);
    // a redelivery on the state it produced spends nothing more; nor does one while a capture is in analysis
    expect(applyForfeit(tx(c.signers), ev, at)).toBeNull();
    expect(applyForfeit(tx([signer(0, { state: 'capture_accepted', capture_id: 'x' })]), ev, at)).toBeNull();
    const last = applyForfeit(tx([signer(0, { state: 'consent_accepted', attempts_left: 1 })]), ev, at)!;
    expect(last.signers[0]!.state).toBe('failed');
    expect(last.status).toBe('failed');
  });

  it('a verdict applies only to the capture under analysis', () => {
    const s = tx([signer(0, { state: 'capture_accepted', capture_id: 'c2' })]);
    expect(applyVerdict(s, { index: 0, capture_id: 'c1', outcome: 'PASS', failed_checks: [] }, at)).toBeNull();
    const pass = applyVerdict(s, { index: 0, capture_id: 'c2', outcome: 'PASS', failed_checks: [] }, at)!;
    expect(pass.nowVerified).toBe(true);
    expect(pass.status).toBe('capture_accepted');
  });

  it('FAIL with attempts left returns to consent_accepted; without, the transaction fails', () => {
    const s = tx([signer(0, { state: 'capture_accepted', capture_id: 'c', attempts_left: 2 })]);
    const retry = applyVerdict(s, { index: 0, capture_id: 'c', outcome: 'FAIL', failed_checks: ['liveness'] }, at)!;
    expect(retry.signers[0]).toMatchObject({ state: 'consent_accepted', attempts_left: 1 });
    const last = applyVerdict(
      tx([signer(0, { state: 'capture_accepted', capture_id: 'c', attempts_left: 1 })]),
      { index: 0, capture_id: 'c', outcome: 'FAIL', failed_checks: [] },
      at,
    )!;
    expect(last.status).toBe('failed');
  });

  it('ERROR (a capture that could not be analysed) reopens the ceremony and charges no attempt, even the last', () => {
    const s = tx([signer(0, { state: 'capture_accepted', capture_id: 'c', attempts_left: 1 })]);
    const error = applyVerdict(s, { index: 0, capture_id: 'c', outcome: 'ERROR', failed_checks: ['analysis_error'] }, at)!;
    expect(error.signers[0]).toMatchObject({ state: 'consent_accepted', attempts_left: 1 });
    expect(error.status).not.toBe('failed');
    expect(error.log[0]).toMatchObject({ type: 'verdict_error', actor: 'biometrics' });
    expect(error.signerChanged).toMatchObject({ from: 'capture_accepted', to: 'consent_accepted', attempts_left: 1 });
    // Applied once: the signer no longer awaits that capture's verdict.
    expect(
      applyVerdict(tx(error.signers), { index: 0, capture_id: 'c', outcome: 'ERROR', failed_checks: ['analysis_error'] }, at),
    ).toBeNull();
  });

  it('the transaction is verified only when every signer has passed, and issued only with the certificate', () => {
    const s = tx([signer(0, { state: 'passed' }), signer(1, { state: 'capture_accepted', capture_id: 'x' })]);
    expect(applyCertificate(s, 'SIG-TX-00000001', at)).toBeNull();
    const pass = applyVerdict(s, { index: 1, capture_id: 'x', outcome: 'PASS', failed_checks: [] }, at)!;
    expect(pass.nowVerified).toBe(true);
    const done = tx(pass.signers, pass.status);
    expect(applyCertificate(done, 'SIG-TX-99999999', at)).toBeNull(); // another transaction's certificate
    expect(applyCertificate(done, 'SIG-TX-00000001', at)!.status).toBe('ledger_issued');
  });

  it('nothing moves a cancelled transaction', () => {
    expect(applyConsent(tx([signer(0)], 'cancelled'), 0, at)).toBeNull();
  });
});
