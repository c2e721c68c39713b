import { outboxEvent, type DeliveredEvent, type KeyedLock, type Logger, type OutboxEntry, type OutboxRelay } from '@signet/kit';
import { eventsV1 } from '@signet/proto';
import { commitment } from '../domain/creation.js';
import {
  applyCapture,
  applyCertificate,
  applyConsent,
  applyForfeit,
  applyVerdict,
  type Change,
  type TxState,
} from '../domain/transaction.js';
import type { TransactionMetrics } from '../metrics.js';
import type { TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';

export const STATE_SUBJECTS = ['signet.ceremony.>', 'signet.biometrics.verdict', 'signet.ledger.certificate.issued'];
export const STATE_DURABLE = 'transaction-state';

type Deps = {
  repo: TransactionRepository;
  tm: TransactionMetrics;
  logger: Logger;
  lock: KeyedLock<number>;
  outbox: OutboxRelay<number>;
};

/** The events a change announces, written on the record in the same update (outbox). */
function eventsFor(rec: TransactionRecord, change: Change): OutboxEntry[] {
  const out: OutboxEntry[] = [];
  const sc = change.signerChanged;
  if (sc) {
    out.push(
      outboxEvent('signet.transaction.signer.changed', (m) =>
        eventsV1.SignerStateChanged.encode({
          eventId: m.event_id,
          occurredAt: m.occurred_at,
          transactionId: rec._id,
          signerIndex: sc.index,
          from: sc.from,
          to: sc.to,
          attemptsLeft: sc.attempts_left,
        }).finish(),
      ),
    );
  }
  if (change.status !== rec.status) {
    out.push(
      outboxEvent('signet.transaction.status.changed', (m) =>
        eventsV1.TransactionStatusChanged.encode({
          eventId: m.event_id,
          occurredAt: m.occurred_at,
          transactionId: rec._id,
          from: rec.status,
          to: change.status,
        }).finish(),
      ),
    );
  }
  if (change.nowVerified) {
    out.push(
      outboxEvent('signet.transaction.verified', (m) =>
        eventsV1.TransactionVerified.encode({
          eventId: m.event_id,
          occurredAt: m.occurred_at,
          transactionId: rec._id,
          reference: rec.reference,
          documentSha256: rec.document_sha256,
          issuerName: rec.issuer_name,
          attestationType: rec.attestation_type,
          ownerId: rec.owner_id,
          signers: change.signers.map((s) => ({
            name: s.name,
            email: s.email,
            verificationMode: s.verification_mode,
            videoSha256: commitment(rec.commitment_salt, s.video_sha256),
            frameSha256: commitment(rec.commitment_salt, s.frame_sha256),
            referenceSha256: s.index === 0 ? commitment(rec.commitment_salt, rec.reference_sha256) : '',
            verifiedAt: (s.verified_at ?? new Date()).toISOString(),
            assurance: s.assurance || 'recorded',
          })),
        }).finish(),
      ),
    );
  }
  return out;
}

/**
 * Applies a trigger to a transaction: read, compute with the pure state machine, write with one
 * update conditional on the status and version read. A lost race re-reads and recomputes; a
 * trigger that no longer applies (already applied, stale, terminal) changes nothing.
 */
export async function applyTrigger(
  deps: Deps,
  id: number,
  compute: (s: TxState) => Change | null,
): Promise<TransactionRecord | null> {
  return deps.lock(id, () => applyLocked(deps, id, compute));
}

async function applyLocked(deps: Deps, id: number, compute: (s: TxState) => Change | null): Promise<TransactionRecord | null> {
  for (let i = 0; i < 10; i++) {
    const rec = await deps.repo.findById(id);
    if (!rec) return null;
    const change = compute({
      status: rec.status,
      signers: rec.signers,
      certificate_issued: rec.certificate_issued,
      reference: rec.reference,
    });
    if (!change) return null;
    const set: Partial<TransactionRecord> = { signers: change.signers, status: change.status };
    if (change.certificateIssued) set.certificate_issued = true;
    if (change.nowVerified) set.verified_at = new Date();
    const log = [...change.log];
    if (change.status !== rec.status)
      log.push({ type: 'status_changed', at: new Date(), actor: 'system', detail: `${rec.status} → ${change.status}` });
    const updated = await deps.repo.update(rec, set, log, eventsFor(rec, change));
    if (updated) {
      if (change.status !== rec.status) deps.tm.transitions.inc({ to: change.status });
      await deps.outbox.flush(id);
      return updated;
    }
  }
  throw new Error(`transaction ${id}: too many concurrent updates`);
}

/** The durable consumer of ceremony, biometrics and ledger events. Idempotent: a redelivery finds nothing left to apply. */
export function stateConsumer(deps: Deps) {
  return async (ev: DeliveredEvent): Promise<void> => {
    switch (ev.subject) {
      case 'signet.ceremony.consent.accepted': {
        const e = eventsV1.ConsentAccepted.decode(ev.data);
        await applyTrigger(deps, Number(e.transactionId), (s) =>
          applyConsent(s, e.signerIndex, new Date(e.occurredAt || Date.now())),
        );
        return;
      }
      case 'signet.ceremony.capture.submitted': {
        const e = eventsV1.CaptureSubmitted.decode(ev.data);
        await applyTrigger(deps, Number(e.transactionId), (s) =>
          applyCapture(
            s,
            {
              index: e.signerIndex,
              capture_id: e.captureId,
              attempt: e.attempt,
              video_sha256: e.videoSha256,
              frame_sha256: e.frameSha256,
            },
            new Date(),
          ),
        );
        return;
      }
      case 'signet.ceremony.attempt.forfeited': {
        const e = eventsV1.AttemptForfeited.decode(ev.data);
        await applyTrigger(deps, Number(e.transactionId), (s) =>
          applyForfeit(s, { index: e.signerIndex, capture_id: e.captureId, attempt: e.attempt, reason: e.reason }, new Date()),
        );
        return;
      }
      case 'signet.biometrics.verdict': {
        const e = eventsV1.BiometricsVerdict.decode(ev.data);
        await applyTrigger(deps, Number(e.transactionId), (s) =>
          applyVerdict(
            s,
            {
              index: e.signerIndex,
              capture_id: e.captureId,
              outcome: e.outcome,
              failed_checks: e.failedChecks,
              assurance: e.assurance,
            },
            new Date(),
          ),
        );
        return;
      }
      case 'signet.ledger.certificate.issued': {
        const e = eventsV1.CertificateIssued.decode(ev.data);
        await applyTrigger(deps, Number(e.transactionId), (s) => applyCertificate(s, e.reference, new Date()));
        return;
      }
      default:
        // Other ceremony facts (challenge issued, forensic logs) do not move the state.
        return;
    }
  };
}
