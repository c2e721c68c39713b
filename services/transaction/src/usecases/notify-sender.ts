import type { Logger, Mailer } from '@signet/kit';
import { senderNotificationMail, type SenderEvent } from '../mail/sender-notification.mail.js';
import type { TransactionMetrics } from '../metrics.js';
import type { TransactionRepository } from '../store/transaction.repository.js';

export type NotifySenderDeps = {
  repo: Pick<TransactionRepository, 'findById' | 'linkMailResult' | 'recordLinkMail'>;
  mailer: Mailer;
  tm: Pick<TransactionMetrics, 'mails'>;
  logger: Logger;
  cfg: { PUBLIC_BASE_URL: string };
};

/** Signer state changes the sender hears about, by the state reached. */
export const SIGNER_NOTICES: Record<string, SenderEvent> = {
  passed: 'signer_passed',
  failed: 'signer_failed',
  declined: 'signer_declined',
};

/**
 * Mails the sender one notice (a signer passed, failed or declined: `signerIndex`; the transaction
 * expired: -1), once: the mail record (the signing-link mails' collection, kind `sender_<event>`) is
 * checked before and written after SMTP accepted it, so a redelivered event mails nothing more.
 * Records without a sender email (older ones) are skipped. A failed send throws (redelivered later);
 * an SMTP 5xx is recorded and not retried.
 */
export async function notifySender(
  deps: NotifySenderDeps,
  /** reason: the ledger's, for sealing_failed (a signer's decline reason is read from the record). */
  ev: { transactionId: number; event: SenderEvent; signerIndex: number; reason?: string },
): Promise<void> {
  const kind = `sender_${ev.event}`;
  const rec = await deps.repo.findById(ev.transactionId);
  if (!rec?.sender_email) return void deps.tm.mails.inc({ kind, result: 'skipped' });
  const key = { transaction_id: rec._id, signer_index: ev.signerIndex, kind, round: 0 };
  if (await deps.repo.linkMailResult(key)) return void deps.tm.mails.inc({ kind, result: 'duplicate' });
  const signer = ev.signerIndex >= 0 ? rec.signers[ev.signerIndex] : undefined;
  const mail = senderNotificationMail({
    to: rec.sender_email,
    event: ev.event,
    orgName: rec.issuer_name,
    documentName: rec.document_name,
    reference: rec.reference,
    signer: signer && { name: signer.name, email: signer.email },
    reason: ev.reason ?? signer?.decline_reason,
    dashboardUrl: `${deps.cfg.PUBLIC_BASE_URL.replace(/\/$/, '')}/app/transactions/${rec._id}`,
  });
  try {
    await deps.mailer.send(mail);
  } catch (err) {
    const code = (err as { responseCode?: number }).responseCode;
    const fields = { transaction_id: rec._id, kind, smtp_code: code };
    if (typeof code === 'number' && code >= 500 && code < 600) {
      deps.tm.mails.inc({ kind, result: 'rejected' });
      deps.logger.warn(fields, 'sender notification refused by the SMTP server; not retried');
      return deps.repo.recordLinkMail(key, 'rejected');
    }
    deps.tm.mails.inc({ kind, result: 'failed' });
    deps.logger.warn(fields, 'sender notification failed; it will be retried');
    throw new Error(`sender notification for transaction ${rec._id} failed`);
  }
  await deps.repo.recordLinkMail(key, 'sent');
  deps.tm.mails.inc({ kind, result: 'sent' });
}
