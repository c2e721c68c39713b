import { describe, expect, it } from 'vitest';
import { applyConsent, applyVerdict, applyCapture } from './ceremony-steps.js';
import { newSigner, type Signer, type TxState } from './transaction.js';
import {
  certifiedChecks,
  currentOrder,
  initialInvites,
  isReleased,
  legacyParties,
  releasedBy,
  validateParties,
  type PartySpec,
} from './signers.js';

const party = (over: Partial<PartySpec> = {}): PartySpec => ({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  role: '',
  order: 1,
  verification: '',
  webauthn: false,
  ...over,
});

const routed = (orders: number[], states: string[] = orders.map(() => 'created')) =>
  orders.map((order, index) => ({ index, order, state: states[index]! }));

describe('required assurance per party', () => {
  const one = (over: Partial<PartySpec>) => validateParties([party({ verification: 'liveness_only', ...over })], new Set())[0]!;
  it('defaults to live, takes each level, and names the signer of a bad one', () => {
    expect(one({}).required_assurance).toBe('live');
    expect(one({ requiredAssurance: 'recorded' })).toMatchObject({ required_assurance: 'recorded', webauthn: false });
    expect(one({ requiredAssurance: ' live ' }).required_assurance).toBe('live');
    expect(() => one({ requiredAssurance: 'video' })).toThrow(
      'signers[0] (ada@example.com): required_assurance must be one of recorded, live, live+webauthn',
    );
  });
  it('reconciles with webauthn: live+webauthn asks for WebAuthn, and WebAuthn with live is live+webauthn', () => {
    expect(one({ requiredAssurance: 'live+webauthn' })).toMatchObject({ required_assurance: 'live+webauthn', webauthn: true });
    expect(one({ webauthn: true })).toMatchObject({ required_assurance: 'live+webauthn', webauthn: true });
    // WebAuthn on a recorded requirement stays recorded (there is no recorded+webauthn level) and is still asked
    expect(one({ webauthn: true, requiredAssurance: 'recorded' })).toMatchObject({
      required_assurance: 'recorded',
      webauthn: true,
    });
  });
  it('refuses a requirement on a viewer (no ceremony)', () => {
    const viewer = party({ email: 'v@example.com', role: 'viewer', requiredAssurance: 'live' });
    expect(() => validateParties([party({ verification: 'liveness_only' }), viewer], new Set())).toThrow(
      /a viewer has no ceremony/,
    );
  });
});

describe('routing by order', () => {
  it('invites the first order only, all of it at once', () => {
    expect(initialInvites(routed([1, 1, 2]))).toEqual([0, 1]);
    expect(initialInvites(routed([2, 1, 3, 1]))).toEqual([1, 3]);
  });

  it('releases the next order only when every signer of the current one passed', () => {
    const one = routed([1, 1, 2], ['passed', 'capture_accepted', 'created']);
    expect(currentOrder(one)).toBe(1);
    expect(isReleased(one, 2)).toBe(false);
    const both = routed([1, 1, 2], ['passed', 'passed', 'created']);
    expect(releasedBy(one, both)).toEqual([2]);
    expect(isReleased(both, 2)).toBe(true);
    // Nothing more to release once released, nor when the last order passes.
    expect(releasedBy(both, both)).toEqual([]);
    expect(releasedBy(both, routed([1, 1, 2], ['passed', 'passed', 'passed']))).toEqual([]);
  });

  it('stops on any terminal failure: nothing released, no later link works', () => {
    const before = routed([1, 1, 2], ['passed', 'capture_accepted', 'created']);
    for (const stop of ['failed', 'declined']) {
      const after = routed([1, 1, 2], ['passed', stop, 'created']);
      expect(currentOrder(after)).toBeNull();
      expect(releasedBy(before, after)).toEqual([]);
      expect(isReleased(after, 2)).toBe(false);
    }
  });

  it('keeps a signer already under way released, and treats records without orders as one order', () => {
    expect(isReleased(routed([1, 2], ['passed', 'consent_accepted']), 1)).toBe(true);
    const old = [
      { index: 0, state: 'created' },
      { index: 1, state: 'created' },
    ];
    expect(initialInvites(old)).toEqual([0, 1]);
  });

  it('is what the state machine does: the verdict that completes order 1 releases order 2 in the same change', () => {
    const signers: Signer[] = [1, 1, 2].map((order, i) =>
      newSigner(i, `s${i}`, `s${i}@example.com`, `token-${i}`, 3, { mode: 'biometric', order }),
    );
    let state: TxState = { status: 'created', signers, certificate_issued: false, reference: 'SIG-TX-00000001' };
    const at = new Date('2026-01-01T00:00:00Z');
    const step = (c: ReturnType<typeof applyConsent>) => {
      expect(c).not.toBeNull();
      state = { ...state, signers: c!.signers, status: c!.status };
      return c!;
    };
    for (const i of [0, 1]) {
      step(applyConsent(state, i, at));
      step(applyCapture(state, { index: i, capture_id: `c${i}`, attempt: 1, video_sha256: 'v', frame_sha256: 'f' }, at));
    }
    const first = step(applyVerdict(state, { index: 0, capture_id: 'c0', outcome: 'PASS', failed_checks: [] }, at));
    expect(first.released).toBeUndefined();
    const second = step(applyVerdict(state, { index: 1, capture_id: 'c1', outcome: 'PASS', failed_checks: [] }, at));
    expect(second.released).toEqual([2]);
    expect(second.log.map((e) => e.detail)).toContain('order 2 reached: signing link queued for s2@example.com');
    expect(second.nowVerified).toBe(false);
  });

  it('a failed order-1 signer releases nobody', () => {
    const signers: Signer[] = [1, 2].map((order, i) =>
      newSigner(i, `s${i}`, `s${i}@example.com`, `token-${i}`, 1, { mode: 'liveness', order }),
    );
    let state: TxState = { status: 'created', signers, certificate_issued: false, reference: 'SIG-TX-00000002' };
    const at = new Date();
    for (const c of [
      applyConsent(state, 0, at),
      applyCapture(
        { ...state, signers: applyConsent(state, 0, at)!.signers },
        { index: 0, capture_id: 'c', attempt: 1, video_sha256: '', frame_sha256: '' },
        at,
      ),
    ])
      state = { ...state, signers: c!.signers, status: c!.status };
    const failed = applyVerdict(state, { index: 0, capture_id: 'c', outcome: 'FAIL', failed_checks: ['liveness_motion'] }, at)!;
    expect(failed.status).toBe('failed');
    expect(failed.released).toBeUndefined();
  });
});

describe('the signers list', () => {
  const photos = (...i: number[]) => new Set(i);

  it('accepts signers, approvers and viewers with orders, and defaults to a face-matched signer of order 1', () => {
    const parties = validateParties(
      [
        party(),
        party({ email: 'bob@example.com', role: 'approver', order: 2, verification: 'liveness_only', webauthn: true }),
        party({ email: 'cy@example.com', role: 'viewer', order: 3 }),
      ],
      photos(0),
    );
    expect(parties.map((p) => [p.role, p.order, p.verification, p.webauthn])).toEqual([
      ['signer', 1, 'face_match', false],
      ['approver', 2, 'liveness_only', true],
      ['viewer', 3, 'none', false],
    ]);
  });

  it.each([
    [
      'a face_match signer without a photo',
      [party()],
      photos(),
      /signers\[0\] \(ada@example\.com\): face_match needs a reference photo \(part signer_photo_0\)/,
    ],
    [
      'liveness_only with a photo',
      [party({ verification: 'liveness_only' })],
      photos(0),
      /signers\[0\].*liveness_only takes no reference photo/,
    ],
    ['a photo for nobody', [party()], photos(0, 3), /signer_photo_3: there is no signers\[3\]/],
    ['a bad email', [party({ email: 'nope' })], photos(0), /signers\[0\] \(nope\): email is not an email address/],
    ['a missing name', [party({ name: ' ' })], photos(0), /signers\[0\] \(ada@example\.com\): name is required/],
    ['two parties with one email', [party(), party({ email: 'ADA@example.com' })], photos(0, 1), /signers\[1\].*different email/],
    ['an unknown role', [party({ role: 'notary' })], photos(0), /signers\[0\].*role must be one of/],
    ['an order of 0', [party({ order: 0 })], photos(0), /signers\[0\].*order must be an integer from 1 to 10/],
    ['an unknown verification', [party({ verification: 'dna' })], photos(0), /verification must be one of/],
    [
      'a viewer with a photo',
      [party(), party({ email: 'v@example.com', role: 'viewer' })],
      photos(0, 1),
      /signers\[1\].*a viewer has no reference photo/,
    ],
    ['viewers only', [party({ role: 'viewer' })], photos(), /at least one signer or approver/],
    [
      'a gap in the orders',
      [party(), party({ email: 'b@example.com', order: 3, verification: 'liveness_only' })],
      photos(0),
      /order 2 is missing/,
    ],
    ['an empty list', [], photos(), /at least one signer/],
    [
      'eleven parties',
      Array.from({ length: 11 }, (_, i) => party({ email: `p${i}@example.com`, verification: 'liveness_only' })),
      photos(),
      /at most 10/,
    ],
  ])('refuses %s, naming the signer', (_what, list, ph, message) => {
    expect(() => validateParties(list, ph)).toThrow(message);
  });

  it('reads the one-signer form as parties: the first face-matched, the others liveness-only, all of order 1', () => {
    const form = { signer_name: 'Ada', signer_email: 'ada@example.com', signer_emails: ['b@example.com'] };
    const required = { required_assurance: 'live' as const };
    expect(legacyParties({ ...form, ...required })).toEqual([
      {
        name: 'Ada',
        email: 'ada@example.com',
        role: 'signer',
        order: 1,
        verification: 'face_match',
        webauthn: false,
        ...required,
      },
      {
        name: 'b@example.com',
        email: 'b@example.com',
        role: 'signer',
        order: 1,
        verification: 'liveness_only',
        webauthn: false,
        ...required,
      },
    ]);
  });

  it('certifies each signer with the checks they passed', () => {
    expect(certifiedChecks({ verification_mode: 'biometric' })).toEqual({
      verificationMode: 'biometric',
      checks: ['liveness', 'face_match'],
    });
    expect(certifiedChecks({ verification_mode: 'liveness', webauthn_verified: true })).toEqual({
      verificationMode: 'liveness+webauthn',
      checks: ['liveness', 'webauthn'],
    });
  });
});
