import type { Logger, Mailer } from '@signet/kit';
import { isReleased } from '../domain/signers.js';
import { isPending } from '../domain/transaction.js';
import type { LinkMailKind } from '../events/transaction.publisher.js';
import { brandOf } from '../mail/brand.js';
import { signingLinkMail } from '../mail/signing-link.mail.js';
import type { AccountBrandingRepository } from '../store/account-branding.repository.js';
import type { TransactionMetrics } from '../metrics.js';
import type { TransactionRepository } from '../store/transaction.repository.js';

export type SendLinksDeps = {
  repo: Pick<TransactionRepository, 'findById' | 'linkMailResult' | 'recordLinkMail'>;
  mailer: Mailer;
  tm: Pick<TransactionMetrics, 'mails'>;
  logger: Logger;
  cfg: { PUBLIC_BASE_URL: string };
  /** Organisations' branding (issue 34 item 4); absent: unbranded mails. */
  brands?: Pick<AccountBrandingRepository, 'get'>;
};

export type LinksRequest = {
  transactionId: number;
  reference: string;
  kind: LinkMailKind;
  round: number;
  signerIndexes: number[];
};

/** An SMTP 5xx answer: the server refuses this mail for good, so retrying cannot help. */
const permanentlyRejected = (err: unknown) => {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/**
 * Mails the signing link to each signer of a request. For each signer it skips a mail the record says
 * was handled, sends, then records it. A failed send throws (the caller's message comes back and only
 * the signers not yet recorded are mailed); an SMTP 5xx is recorded as rejected and not retried. A
 * cancelled or finished transaction, or a signer who passed or failed, is not mailed.
 */
export async function sendSigningLinks(deps: SendLinksDeps, req: LinksRequest): Promise<void> {
  const base = deps.cfg.PUBLIC_BASE_URL.replace(/\/$/, '');
  const { kind, transactionId: id } = req;
  const rec = await deps.repo.findById(id);
  // Another database's transaction with the same integer id is not ours.
  if (!rec || rec.reference !== req.reference) {
    deps.tm.mails.inc({ kind, result: 'skipped' }, req.signerIndexes.length);
    return;
  }
  for (const index of req.signerIndexes) {
    const key = { transaction_id: id, signer_index: index, kind, round: req.round };
    if (await deps.repo.linkMailResult(key)) {
      deps.tm.mails.inc({ kind, result: 'duplicate' });
      continue;
    }
    const signer = rec.signers[index];
    // Cancelled or finished meanwhile: the link no longer works, so it is not mailed. Nor is a link
    // whose order has not been reached (routing, issue 18): a reminder cannot send it early.
    if (
      !signer ||
      !isPending(rec.status) ||
      signer.state === 'passed' ||
      signer.state === 'failed' ||
      !isReleased(rec.signers, index)
    ) {
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
          test: rec.test === true,
          locale: signer.locale,
          brand: await brandOf(deps.brands, rec.owner_id, base),
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
}
