import { achievedOf, meets, requiredOf } from '../domain/assurance.js';
import { MAX_DRAWS_PER_ATTEMPT, type ChallengeRecord } from '../domain/challenge.js';
import { assuranceInsufficient, staleNonce } from '../domain/errors.js';
import type { LiveAssessment } from '../domain/live.js';
import type { SessionRepository } from '../store/session.repository.js';
import type { CeremonyDeps } from './deps.js';
import type { Resolved } from './resolve-session.js';

export type RefuseDeps = Pick<CeremonyDeps, 'live' | 'metrics' | 'logger' | 'now'> & {
  sessions: Pick<SessionRepository, 'refuseCapture'>;
};

/**
 * The sender's required assurance against what this capture proves (issue 30), before anything is
 * stored or analysed. Below it, the capture is refused with a clear reason and its challenge is used
 * up: the signer records again with a new draw, and the draw limit spends the attempt after three, so
 * a signer on a bad network can try again while nobody probes the analysis for free. The refusal is
 * kept on the session (with the live timing's reason, never shown to the signer) and counted.
 * `assessed`: the live timing's assessment, null for a single upload (recorded).
 */
export async function refuseBelowRequired(
  deps: RefuseDeps,
  r: Resolved,
  ch: ChallengeRecord,
  assessed: LiveAssessment | null,
  webauthnVerified: boolean,
): Promise<void> {
  const required = requiredOf(r.ctx);
  const offered = achievedOf(assessed?.assurance ?? 'recorded', webauthnVerified);
  if (meets(offered, required)) return;
  const upload = (ch.mode ?? 'upload') === 'upload';
  const detail = upload ? 'single upload' : (assessed?.detail ?? '');
  const refusal = { nonce: ch.nonce, attempt: r.session.attempt + 1, required, offered, detail, at: new Date(deps.now()) };
  if (!(await deps.sessions.refuseCapture(r.session._id, ch.nonce, refusal))) throw staleNonce();
  if (!upload) await deps.live.drop(r.session._id, ch.nonce).catch(() => undefined);
  deps.metrics.belowRequired.inc({ required, offered });
  deps.logger.info({ session: r.session._id, required, offered, detail }, 'capture refused: below the required assurance');
  throw assuranceInsufficient(required, Math.max(0, MAX_DRAWS_PER_ATTEMPT - r.session.draws), upload);
}
