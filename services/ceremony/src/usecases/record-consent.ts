import { invalid } from '@signet/kit';
import { attestationTextSha256, CONSENT_TEXT_VERSION } from '../domain/attestation.js';
import { consentAlreadyRecorded, fieldsPending } from '../domain/errors.js';
import { clientOf } from '../domain/session.js';
import { summarize, type CeremonySummary } from '../domain/summary.js';
import { consentAcceptedEvent } from '../events/consent-accepted.publisher.js';
import type { SessionRepository } from '../store/session.repository.js';
import type { CeremonyDeps } from './deps.js';
import { resolveSession, type ResolveDeps } from './resolve-session.js';

/**
 * Records the signer's consent to the current text, once, with the time, address and browser, and
 * the `consent.accepted` event in the same update; a second consent is a conflict and changes nothing.
 */
export async function recordConsent(
  deps: ResolveDeps &
    Pick<CeremonyDeps, 'metrics' | 'onOutbox' | 'now'> & { sessions: Pick<SessionRepository, 'ensure' | 'recordConsent'> },
  input: { token: string; textVersion: string; ip: string; userAgent: string },
): Promise<CeremonySummary> {
  if (input.textVersion !== CONSENT_TEXT_VERSION)
    throw invalid(`consent_text_version must be "${CONSENT_TEXT_VERSION}" (the text the page showed)`);
  const { ctx, session } = await resolveSession(deps, input.token);
  if (session.consent) {
    deps.metrics.consents.inc({ result: 'duplicate' });
    throw consentAlreadyRecorded();
  }
  if (ctx.fieldsPending) {
    deps.metrics.consents.inc({ result: 'fields_pending' });
    throw fieldsPending();
  }
  const client = clientOf(input.ip, input.userAgent);
  const updated = await deps.sessions.recordConsent(
    session._id,
    {
      text_version: input.textVersion,
      retention_days: ctx.retentionDays,
      at: new Date(deps.now()),
      ...client,
    },
    consentAcceptedEvent(ctx.transactionId, ctx.signerIndex, {
      textVersion: input.textVersion,
      ip: client.ip,
      userAgent: client.user_agent,
      openedAt: new Date(session.created_at),
      attestationTextSha256: attestationTextSha256(ctx.attestationType, ctx.signerName, ctx.documentName),
    }),
  );
  if (!updated) {
    deps.metrics.consents.inc({ result: 'duplicate' });
    throw consentAlreadyRecorded();
  }
  deps.metrics.consents.inc({ result: 'ok' });
  deps.onOutbox();
  return summarize(ctx, updated);
}
