import { requiredOf } from './assurance.js';
import { attestationText, consentText, CONSENT_TEXT_VERSION } from './attestation.js';
import { MAX_DRAWS_PER_ATTEMPT } from './challenge.js';
import { redoSteps, type RedoStep } from './redo.js';
import type { Session } from './session.js';
import { stepOf, type SigningContext } from './signer.js';

/** What the signing page shows of a ceremony (GetSummary, and the answer to RecordConsent). */
export function summarize(ctx: SigningContext, session: Session) {
  const last = session.captures.at(-1);
  const webauthnDone = !!session.webauthn && !!session.challenge && session.webauthn.nonce === session.challenge.nonce;
  const attestationType = ctx.attestationType || 'signature';
  return {
    signerName: ctx.signerName,
    issuerName: ctx.issuerName,
    documentName: ctx.documentName,
    documentSha256Prefix: ctx.documentSha256.slice(0, 16),
    attestationType,
    attestationText: attestationText(attestationType, ctx.signerName, ctx.documentName),
    step: stepOf(ctx, session),
    attemptsLeft: ctx.attemptsLeft,
    webauthnOffered: true,
    webauthnRequired: (ctx.webauthnRequired ?? false) || requiredOf(ctx) === 'live+webauthn',
    requiredAssurance: requiredOf(ctx),
    outcome: last?.outcome ? last.outcome.toLowerCase() : '',
    consentTextVersion: CONSENT_TEXT_VERSION,
    consentText: consentText(ctx.retentionDays),
    attempt: session.attempt,
    webauthnDone,
    verificationMode: last?.verification_mode ?? ctx.verificationMode,
    drawsLeft: Math.max(0, MAX_DRAWS_PER_ATTEMPT - session.draws),
    /** After a FAIL: the steps to redo, never a score. */
    redo: last?.outcome === 'FAIL' ? redoSteps(last.failed_checks ?? []) : ([] as RedoStep[]),
  };
}
export type CeremonySummary = ReturnType<typeof summarize>;
