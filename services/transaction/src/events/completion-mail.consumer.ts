import type { DeliveredEvent } from '@signet/kit';
import { events } from '@signet/proto';
import { sendCompletionMails, type CompletionMailDeps } from '../usecases/send-completion-mails.js';

export const COMPLETION_MAIL_DURABLE = 'transaction-completion-mail';

/**
 * The durable consumer of `signet.ledger.pdf.sealed`: the signed PDF is stored, so every signer,
 * viewer and the sender get a mail with a download link (usecases/send-completion-mails.ts). Acked
 * after every recipient is recorded; a failed send throws and the event comes back.
 */
export function completionMailConsumer(deps: CompletionMailDeps) {
  return async (ev: DeliveredEvent): Promise<void> => {
    if (ev.subject !== events.pdfSealed.subject) return;
    const e = events.pdfSealed.message.decode(ev.data);
    await sendCompletionMails(deps, { transactionId: Number(e.transactionId), reference: e.reference });
  };
}
