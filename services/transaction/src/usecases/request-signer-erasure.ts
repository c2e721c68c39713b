import type { Logger, Mailer } from '@signet/kit';
import { DomainError, notFound } from '@signet/kit';
import { erasureRequestedEntry, signerErasureDue, type ErasureRequest } from '../domain/retention.js';
import { isPending } from '../domain/transaction.js';
import { erasureNoticeMail } from '../mail/erasure-notice.mail.js';
import type { TransactionMetrics } from '../metrics.js';
import type { ErasureRequestRepository } from '../store/erasure-request.repository.js';

export type SignerErasureDeps = {
  requests: ErasureRequestRepository;
  mailer: Mailer;
  tm: Pick<TransactionMetrics, 'mails'>;
  logger: Logger;
  cfg: { PUBLIC_BASE_URL: string };
  /** The notice period before a signer's request erases the data (ERASURE_NOTICE_SECONDS). */
  noticeMs: number;
  clock: () => Date;
};

export type SignerErasureResult = { due: Date; erased: boolean };

const noSuchLink = () => notFound('no such erasure link');

/**
 * A signer asks, through the completion mail's link (the gateway has checked its signature), for
 * their biometric data to be erased (issue 21). The transaction must have ended and the link must
 * name it and one of its signers. The first request sets the deletion date to the end of the notice
 * period (never later than the retention already set), logs it and mails the sender; the erasure
 * job (jobs/biometric-erasure.job.ts) then erases it like any due record, with reason `signer`. A
 * repeated request changes nothing and answers the same date; if the sender's notice could not be
 * mailed the first time, it is tried again.
 */
export async function requestSignerErasure(
  deps: SignerErasureDeps,
  req: { transactionId: number; reference: string; signerIndex: number },
): Promise<SignerErasureResult> {
  const rec = req.transactionId > 0 ? await deps.requests.find(req.transactionId) : null;
  if (!rec || rec.reference !== req.reference) throw noSuchLink();
  const signer = rec.signers[req.signerIndex];
  if (!signer || req.signerIndex < 0) throw noSuchLink();
  // Links are only mailed once a transaction has ended; a pending one never had one.
  if (isPending(rec.status)) throw noSuchLink();
  if (rec.biometrics_erased_at) return { due: new Date(rec.biometrics_erased_at), erased: true };

  let request = rec.erasure_request ?? null;
  if (!request) {
    const now = deps.clock();
    const due = signerErasureDue(now, deps.noticeMs, rec.biometrics_delete_after);
    const fresh: ErasureRequest = { by: `signer:${req.signerIndex}`, at: now, due, sender_notified_at: null };
    if (await deps.requests.record(rec._id, fresh, due, erasureRequestedEntry(req.signerIndex, due, now))) request = fresh;
    else {
      // Another request (or the erasure itself) came first: answer what it recorded.
      const again = await deps.requests.find(rec._id);
      if (again?.biometrics_erased_at) return { due: new Date(again.biometrics_erased_at), erased: true };
      request = again?.erasure_request ?? null;
      if (!request) throw noSuchLink();
    }
  }
  if (!request.sender_notified_at && rec.sender_email) {
    const requester = rec.signers[Number(request.by.split(':')[1])] ?? signer;
    // The request is recorded; a notice that cannot be mailed now is a retryable 503 (never a 500),
    // and pressing again mails it (sender_notified_at is still unset).
    await deps.mailer
      .send(
        erasureNoticeMail({
          to: rec.sender_email,
          orgName: rec.issuer_name,
          documentName: rec.document_name,
          reference: rec.reference,
          signer: { name: requester.name, email: requester.email },
          due: new Date(request.due),
          legalHold: rec.legal_hold ?? null,
          dashboardUrl: `${deps.cfg.PUBLIC_BASE_URL.replace(/\/$/, '')}/app/transactions/${rec._id}`,
        }),
      )
      .catch((err: unknown) => {
        deps.tm.mails.inc({ kind: 'erasure_notice', result: 'failed' });
        deps.logger.warn({ err: { message: (err as Error).message }, transaction_id: rec._id }, 'erasure notice mail failed');
        throw new DomainError(
          'unavailable',
          'the request is recorded but the sender could not be told yet; retry shortly',
          'MAIL_UNAVAILABLE',
          30,
        );
      });
    deps.tm.mails.inc({ kind: 'erasure_notice', result: 'sent' });
    await deps.requests.markSenderNotified(rec._id, deps.clock());
  }
  deps.logger.info({ transaction_id: rec._id, signer_index: req.signerIndex, due: request.due }, 'signer erasure requested');
  return { due: new Date(request.due), erased: false };
}
