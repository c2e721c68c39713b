import { status } from '@grpc/grpc-js';
import { RpcError, type Logger, type Metrics, type ServiceClient } from '@signet/kit';
import type { transactionV1 } from '@signet/proto';
import type { Client as S3 } from 'minio';
import type { Redis } from 'ioredis';
import type { OutboxRelay } from '@signet/kit';
import type { CeremonyConfig } from '../config.js';
import { sessionNotFound } from '../domain/errors.js';
import { sessionId, type Session, type SessionRepository } from '../store/session.repository.js';
import type { LiveBuffer } from '../store/live.buffer.js';

export type CeremonyDeps = {
  cfg: CeremonyConfig;
  logger: Logger;
  metrics: Metrics;
  sessions: SessionRepository;
  transaction: ServiceClient<transactionV1.TransactionServiceClient>;
  s3: S3;
  redis: Redis;
  relay: OutboxRelay;
  counters: CeremonyCounters;
  live: LiveBuffer;
};

type CounterOf = ReturnType<Metrics['counter']>;
type HistogramOf = ReturnType<Metrics['histogram']>;
export type CeremonyCounters = Record<
  'consents' | 'challenges' | 'captures' | 'webauthn' | 'forensic' | 'verdicts' | 'live' | 'assurance',
  CounterOf
> &
  Record<'captureBytes' | 'captureSeconds', HistogramOf>;

export function ceremonyCounters(metrics: Metrics): CeremonyCounters {
  return {
    consents: metrics.counter('signet_ceremony_consents_total', 'Consent requests by result', ['result']),
    challenges: metrics.counter('signet_ceremony_challenges_issued_total', 'Challenges served, new or the live one again', [
      'kind',
    ]),
    captures: metrics.counter('signet_ceremony_captures_total', 'Capture submissions by result', ['result']),
    captureBytes: metrics.histogram(
      'signet_ceremony_capture_video_bytes',
      'Size of accepted videos',
      [],
      [1e5, 5e5, 1e6, 2.5e6, 5e6, 1e7, 2.5e7, 5e7],
    ),
    captureSeconds: metrics.histogram(
      'signet_ceremony_capture_processing_seconds',
      'Time to check and store a capture',
      [],
      [0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    ),
    webauthn: metrics.counter('signet_ceremony_webauthn_total', 'WebAuthn verifications by kind and result', ['kind', 'result']),
    forensic: metrics.counter('signet_ceremony_forensic_batches_total', 'Forensic batches by result', ['result']),
    verdicts: metrics.counter('signet_ceremony_verdicts_recorded_total', 'Biometric verdicts recorded on sessions', ['outcome']),
    live: metrics.counter(
      'signet_ceremony_live_chunks_total',
      'Live recordings started and their chunks by result (appended, duplicate, gap, too_large, too_many)',
      ['result'],
    ),
    assurance: metrics.counter(
      'signet_ceremony_capture_assurance_total',
      'Accepted captures by the assurance their timing proves (live, recorded)',
      ['assurance'],
    ),
  };
}

export type Resolved = { ctx: transactionV1.SigningContext; session: Session };

/** Resolves the token through the transaction service (NOT_FOUND for unknown, cancelled, finished) and loads the session. */
export async function resolve(deps: CeremonyDeps, token: string): Promise<Resolved> {
  if (!token || token.length > 256) throw sessionNotFound();
  let ctx: transactionV1.SigningContext;
  try {
    ctx = await deps.transaction.resolveSigningToken({ token });
  } catch (err) {
    if (err instanceof RpcError && (err.code === status.NOT_FOUND || err.code === status.INVALID_ARGUMENT))
      throw sessionNotFound();
    throw err;
  }
  const session = await deps.sessions.ensure({
    id: sessionId(Number(ctx.transactionId), ctx.signerIndex),
    transactionId: Number(ctx.transactionId),
    signerIndex: ctx.signerIndex,
    signerEmail: ctx.signerEmail,
  });
  return { ctx, session };
}

export type Step = 'consent' | 'challenge' | 'verifying' | 'passed' | 'failed';

/** The ceremony step from the session and the transaction's view of the signer. */
export function stepOf(ctx: transactionV1.SigningContext, s: Session): Step {
  const last = s.captures.at(-1);
  if (ctx.signerState === 'passed' || last?.outcome === 'PASS') return 'passed';
  if (ctx.signerState === 'failed') return 'failed';
  if (!s.consent) return 'consent';
  if (!last) return 'challenge';
  if (last.outcome === 'FAIL') {
    if (ctx.attemptsLeft <= 0) return 'failed';
    // The transaction has taken the failed verdict and reopened the ceremony for a new challenge.
    return ctx.signerState === 'consent_accepted' ? 'challenge' : 'verifying';
  }
  return 'verifying';
}
