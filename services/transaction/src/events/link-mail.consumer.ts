import { outboxEvent, type DeliveredEvent, type Logger, type Mailer, type OutboxEntry } from '@signet/kit';
import { eventsV1 } from '@signet/proto';
import { isPending } from '../domain/transaction.js';
import { signingLinkMail } from '../mail/signing-link.mail.js';
import type { TransactionMetrics } from '../metrics.js';
import type { TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';

export const LINK_MAIL_SUBJECT = 'signet.transaction.links.requested';
export const LINK_MAIL_DURABLE = 'transaction-link-mail';
/**
 * Ack wait of the mail consumer: well past nodemailer's 2 min connection timeout, so a slow SMTP server
 * does not get a request redelivered to another replica while this one is still sending. A server that
 * stalls mid-conversation for longer (nodemailer's idle timeout is 10 min) can still cause a double mail.
 */
export const LINK_MAIL_ACK_WAIT_MS = 5 * 60_000;

export type LinkMailKind = 'invite' | 'reminder';

/**
 * The outbox entry asking for signing-link mail, written in the same update as the creation
 * (invite, round 0) or the resend (reminder, round = the version that update wrote).
 */
export function linkMailRequest(
  rec: Pick<TransactionRecord, '_id' | 'reference'>,
  kind: LinkMailKind,
  round: number,
  signerIndexes: number[],
): OutboxEntry {
  return outboxEvent(LINK_MAIL_SUBJECT, (m) =>
    eventsV1.SigningLinksRequested.encode({
      eventId: m.event_id,
      occurredAt: m.occurred_at,
      transactionId: rec._id,
      reference: rec.reference,
      kind,
      round,
      signerIndexes,
    }).finish(),
  );
}

type Deps = {
  repo: TransactionRepository;
  mailer: Mailer;
  tm: TransactionMetrics;
  logger: Logger;
  cfg: { PUBLIC_BASE_URL: string };
};

/** An SMTP 5xx answer: the server refuses this mail for good, so retrying cannot help. */
const permanentlyRejected = (err: unknown) => {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/**
 * The durable consumer that sends signing-link mail. For each signer of a request it skips a mail the
 * record says was sent, sends, then records it; the message is acked only after every signer is
 * recorded. A failed send throws, so the message comes back (with the kit's backoff) and only the
 * signers not yet recorded are mailed. A crash between SMTP accepting a mail and the record write
 * sends that one mail again on redelivery: at-least-once for that window only.
 */
export function linkMailConsumer(deps: Deps) {
  const base = deps.cfg.PUBLIC_BASE_URL.replace(/\/$/, '');
  return async (ev: DeliveredEvent): Promise<void> => {
    if (ev.subject !== LINK_MAIL_SUBJECT) return;
    const e = eventsV1.SigningLinksRequested.decode(ev.data);
    const kind = e.kind === 'reminder' ? 'reminder' : 'invite';
    const id = Number(e.transactionId);
    const rec = await deps.repo.findById(id);
    // Another database's transaction with the same integer id is not ours.
    if (!rec || rec.reference !== e.reference) {
      deps.tm.mails.inc({ kind, result: 'skipped' }, e.signerIndexes.length);
      return;
    }
    for (const index of e.signerIndexes) {
      const key = { transaction_id: id, signer_index: index, kind, round: Number(e.round) };
      if (await deps.repo.linkMailResult(key)) {
        deps.tm.mails.inc({ kind, result: 'duplicate' });
        continue;
      }
      const signer = rec.signers[index];
      // Cancelled or finished meanwhile: the link no longer works, so it is not mailed.
      if (!signer || !isPending(rec.status) || signer.state === 'passed' || signer.state === 'failed') {
        deps.tm.mails.inc({ kind, result: 'skipped' });
        continue;
      }
      try {
        await deps.mailer.send(
          signingLinkMail({
            to: signer.email,
            orgName: rec.issuer_name,
            documentName: rec.document_name,
            signUrl: `${base}/sign/${signer.token}`,
            reminder: kind === 'reminder',
          }),
        );
      } catch (err) {
        // Never the mail itself in the log: it carries the signing link.
        const fields = {
          transaction_id: id,
          signer_index: index,
          kind,
          smtp_code: (err as { responseCode?: number }).responseCode,
        };
        if (permanentlyRejected(err)) {
          deps.tm.mails.inc({ kind, result: 'rejected' });
          deps.logger.warn(fields, 'signing-link mail refused by the SMTP server; not retried');
          await deps.repo.recordLinkMail(key, 'rejected');
          continue;
        }
        deps.tm.mails.inc({ kind, result: 'failed' });
        deps.logger.warn(fields, 'signing-link mail failed; it will be retried');
        throw new Error(`signing-link mail for transaction ${id} signer ${index} failed`);
      }
      await deps.repo.recordLinkMail(key, 'sent');
      deps.tm.mails.inc({ kind, result: 'sent' });
    }
  };
}
