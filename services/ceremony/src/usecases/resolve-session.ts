import { sessionNotFound } from '../domain/errors.js';
import { sessionId, type Session } from '../domain/session.js';
import type { SigningContext } from '../domain/signer.js';
import type { SessionRepository } from '../store/session.repository.js';
import type { CeremonyDeps } from './deps.js';

export type Resolved = { ctx: SigningContext; session: Session };
export type ResolveDeps = Pick<CeremonyDeps, 'signingTokens'> & { sessions: Pick<SessionRepository, 'ensure'> };

/**
 * The first step of every RPC: the token through the transaction service (unknown, cancelled and
 * finished are all NOT_FOUND) and the signer's session, created on first contact.
 */
export async function resolveSession(deps: ResolveDeps, token: string): Promise<Resolved> {
  if (!token || token.length > 256) throw sessionNotFound();
  const ctx = await deps.signingTokens.resolve(token);
  if (!ctx) throw sessionNotFound();
  const session = await deps.sessions.ensure({
    id: sessionId(ctx.transactionId, ctx.signerIndex),
    transactionId: ctx.transactionId,
    signerIndex: ctx.signerIndex,
    signerEmail: ctx.signerEmail,
  });
  return { ctx, session };
}
