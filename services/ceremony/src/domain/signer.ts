import type { Session } from './session.js';

/** The transaction service's view of the signer a signing token names (ResolveSigningToken). */
export type SigningContext = {
  transactionId: number;
  signerIndex: number;
  signerName: string;
  signerEmail: string;
  /** created, consent_accepted, capture_accepted, passed, failed */
  signerState: string;
  documentName: string;
  documentSha256: string;
  referenceKey: string;
  attestationType: string;
  issuerName: string;
  verificationMode: string;
  attemptsLeft: number;
  /** Days the biometric data is kept after the transaction ends (stated in the consent text). */
  retentionDays: number;
  /** The sender asked this signer to confirm with WebAuthn too (issue 18): no capture is accepted without it. */
  webauthnRequired?: boolean;
  /** The lowest assurance the sender accepts (recorded | live | live+webauthn; empty on older transactions: none). */
  requiredAssurance?: string;
  /** Required fields on the document are not filled yet (issue 33): no consent until they are. */
  fieldsPending?: boolean;
};

export type Step = 'consent' | 'challenge' | 'verifying' | 'passed' | 'failed';

/** The ceremony step from the session and the transaction's view of the signer. */
export function stepOf(ctx: SigningContext, s: Session): Step {
  const last = s.captures.at(-1);
  if (ctx.signerState === 'passed' || last?.outcome === 'PASS') return 'passed';
  if (ctx.signerState === 'failed') return 'failed';
  if (!s.consent) return 'consent';
  if (!last) return 'challenge';
  // ERROR: the capture could not be judged (technical failure), and the transaction reopens the
  // ceremony without charging an attempt.
  if (last.outcome === 'FAIL' || last.outcome === 'ERROR') {
    if (ctx.attemptsLeft <= 0) return 'failed';
    // The transaction has taken the verdict and reopened the ceremony for a new challenge.
    return ctx.signerState === 'consent_accepted' ? 'challenge' : 'verifying';
  }
  return 'verifying';
}
