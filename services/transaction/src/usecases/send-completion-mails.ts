import type { Logger, Mailer } from '@signet/kit';
import { brandOf } from '../mail/brand.js';
import { completionMail } from '../mail/completion.mail.js';
import type { AccountBrandingRepository } from '../store/account-branding.repository.js';
import { downloadLink } from '../mail/download-link.js';
import { erasureLink } from '../mail/erasure-link.js';
import type { TransactionMetrics } from '../metrics.js';
import type { CompletionMailRepository } from '../store/completion-mail.repository.js';
import type { TransactionRecord, TransactionRepository } from '../store/transaction.repository.js';

export type CompletionMailDeps = {
  repo: Pick<TransactionRepository, 'findById'>;
  sent: Pick<CompletionMailRepository, 'result' | 'record'>;
  mailer: Mailer;
  tm: Pick<TransactionMetrics, 'mails'>;
  logger: Logger;
  cfg: { PUBLIC_BASE_URL: string; DOWNLOAD_LINK_SECRET?: string; DOWNLOAD_LINK_TTL_SECONDS: number };
  clock: () => Date;
  /** Organisations' branding (issue 34 item 4); absent: unbranded mails. */
  brands?: Pick<AccountBrandingRepository, 'get'>;
};

/** `locale`: the language the sender chose for a signer or viewer (absent: English). */
type Recipient = { id: string; email: string; forSender: boolean; locale?: string };

/** Who hears of the completion: every signer, every viewer and the sender, one mail per address. */
export function completionRecipients(
  rec: Pick<TransactionRecord, 'signers'> & { viewers?: { email: string; locale?: string }[]; sender_email?: string },
): Recipient[] {
  const all: Recipient[] = [
    ...rec.signers.map((s, i) => ({ id: `signer:${i}`, email: s.email, forSender: false, locale: s.locale })),
    ...(rec.viewers ?? []).map((v, i) => ({ id: `viewer:${i}`, email: v.email, forSender: false, locale: v.locale })),
    ...(rec.sender_email ? [{ id: 'sender', email: rec.sender_email, forSender: true }] : []),
  ];
  const seen = new Set<string>();
  return all.filter((r) => {
    const key = r.email.trim().toLowerCase();
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const permanentlyRejected = (err: unknown) => {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/**
 * The signed PDF of a transaction is sealed (signet.ledger.pdf.sealed): mails each recipient a link
 * to download it. Idempotent per recipient: a mail already recorded is skipped, so a redelivered
 * event mails only those not yet recorded; a failed send throws (the event comes back), an SMTP 5xx
 * is recorded as rejected and not retried. Without DOWNLOAD_LINK_SECRET no mail is sent.
 */
export async function sendCompletionMails(
  deps: CompletionMailDeps,
  ev: { transactionId: number; reference: string },
): Promise<void> {
  const kind = 'completion';
  const secret = deps.cfg.DOWNLOAD_LINK_SECRET;
  const rec = (await deps.repo.findById(ev.transactionId)) as
    (TransactionRecord & { viewers?: { email: string }[]; sender_email?: string }) | null;
  // Another database's transaction with the same integer id is not ours.
  if (!rec || rec.reference !== ev.reference || !secret) {
    deps.tm.mails.inc({ kind, result: 'skipped' });
    if (rec && !secret)
      deps.logger.warn({ transaction_id: ev.transactionId }, 'completion mails are off (DOWNLOAD_LINK_SECRET is not set)');
    return;
  }
  for (const r of completionRecipients(rec)) {
    if (await deps.sent.result(rec._id, r.id)) {
      deps.tm.mails.inc({ kind, result: 'duplicate' });
      continue;
    }
    const now = deps.clock();
    const ttl = deps.cfg.DOWNLOAD_LINK_TTL_SECONDS;
    const url = await downloadLink({
      baseUrl: deps.cfg.PUBLIC_BASE_URL,
      secret,
      reference: rec.reference,
      transactionId: rec._id,
      recipient: r.id,
      now,
      ttlSeconds: ttl,
    });
    // Each signer's own erasure link (issue 21), valid while there can be data to erase.
    const signerIndex = r.id.startsWith('signer:') ? Number(r.id.slice('signer:'.length)) : -1;
    const erasureUrl =
      signerIndex >= 0 && !rec.biometrics_erased_at
        ? await erasureLink({
            baseUrl: deps.cfg.PUBLIC_BASE_URL,
            secret,
            reference: rec.reference,
            transactionId: rec._id,
            signerIndex,
            now,
            deleteAfter: rec.biometrics_delete_after
              ? new Date(rec.biometrics_delete_after)
              : new Date(now.getTime() + 400 * 86_400_000),
          })
        : undefined;
    try {
      await deps.mailer.send(
        completionMail({
          erasureUrl,
          to: r.email,
          orgName: rec.issuer_name,
          documentName: rec.document_name,
          reference: rec.reference,
          downloadUrl: url,
          expiresAt: new Date(now.getTime() + ttl * 1000),
          forSender: r.forSender,
          test: rec.test === true,
          locale: r.locale,
          brand: r.forSender ? undefined : await brandOf(deps.brands, rec.owner_id, deps.cfg.PUBLIC_BASE_URL),
        }),
      );
    } catch (err) {
      // Never the mail in the log: it carries the download link.
      const fields = { transaction_id: rec._id, recipient: r.id, smtp_code: (err as { responseCode?: number }).responseCode };
      if (permanentlyRejected(err)) {
        deps.tm.mails.inc({ kind, result: 'rejected' });
        deps.logger.warn(fields, 'completion mail refused by the SMTP server; not retried');
        await deps.sent.record(rec._id, r.id, 'rejected', now);
        continue;
      }
      deps.tm.mails.inc({ kind, result: 'failed' });
      deps.logger.warn(fields, 'completion mail failed; it will be retried');
      throw new Error(`completion mail for transaction ${rec._id} (${r.id}) failed`);
    }
    await deps.sent.record(rec._id, r.id, 'sent', now);
    deps.tm.mails.inc({ kind, result: 'sent' });
  }
}
