import type { DeliveredEvent } from '@signet/kit';
import type { EventEntry } from '@signet/proto';
import { events } from '@signet/proto';
import { notifySender, SIGNER_NOTICES, type NotifySenderDeps } from '../usecases/notify-sender.js';

export const SENDER_MAIL_DURABLE = 'transaction-sender-mail';
export const SENDER_MAIL_EVENTS: EventEntry[] = [
  events.signerStateChanged,
  events.transactionStatusChanged,
  events.pdfSealFailed,
];

/**
 * The durable consumer that mails the sender (usecases/notify-sender.ts): a signer reached passed,
 * failed or declined (signet.transaction.signer.changed), the transaction expired
 * (signet.transaction.status.changed), or its signed PDF can never be sealed (signet.ledger.pdf.failed). Acked after the mail is recorded; a failed send comes back.
 */
export function senderMailConsumer(deps: NotifySenderDeps) {
  return async (ev: DeliveredEvent): Promise<void> => {
    if (ev.subject === events.signerStateChanged.subject) {
      const e = events.signerStateChanged.message.decode(ev.data);
      const event = SIGNER_NOTICES[e.to];
      if (event) await notifySender(deps, { transactionId: Number(e.transactionId), event, signerIndex: e.signerIndex });
    } else if (ev.subject === events.transactionStatusChanged.subject) {
      const e = events.transactionStatusChanged.message.decode(ev.data);
      if (e.to === 'expired')
        await notifySender(deps, { transactionId: Number(e.transactionId), event: 'expired', signerIndex: -1 });
    } else if (ev.subject === events.pdfSealFailed.subject) {
      const e = events.pdfSealFailed.message.decode(ev.data);
      await notifySender(deps, {
        transactionId: Number(e.transactionId),
        event: 'sealing_failed',
        signerIndex: -1,
        reason: e.reason,
      });
    }
  };
}
