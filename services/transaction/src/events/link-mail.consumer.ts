import type { DeliveredEvent } from '@signet/kit';
import { events } from '@signet/proto';
import { sendSigningLinks, type SendLinksDeps } from '../usecases/send-signing-links.js';

export const LINK_MAIL_DURABLE = 'transaction-link-mail';
/**
 * Ack wait of the mail consumer: well past nodemailer's 2 min connection timeout, so a slow SMTP server
 * does not get a request redelivered to another replica while this one is still sending. A server that
 * stalls mid-conversation for longer (nodemailer's idle timeout is 10 min) can still cause a double mail.
 */
export const LINK_MAIL_ACK_WAIT_MS = 5 * 60_000;
/**
 * Requests handled at once per replica, one per pooled SMTP connection (the kit's mailer keeps up to 5).
 * Safe as N replicas are: each mail is keyed (transaction, signer, kind, round) and recorded once sent,
 * and two requests never share a key. One at a time kept up with about a quarter of 20 concurrent creations.
 */
export const LINK_MAIL_CONCURRENCY = 5;

/**
 * The durable consumer of `signet.transaction.links.requested` (SigningLinksRequested): decodes the
 * request and sends the mails (usecases/send-signing-links.ts). The message is acked only after every
 * signer is recorded; a failed send throws, so it comes back with the kit's backoff. A crash between
 * SMTP accepting a mail and the record write sends that one mail again on redelivery: at-least-once
 * for that window only.
 */
export function linkMailConsumer(deps: SendLinksDeps) {
  return async (ev: DeliveredEvent): Promise<void> => {
    if (ev.subject !== events.linksRequested.subject) return;
    const e = events.linksRequested.message.decode(ev.data);
    await sendSigningLinks(deps, {
      transactionId: Number(e.transactionId),
      reference: e.reference,
      kind: e.kind === 'reminder' ? 'reminder' : 'invite',
      round: Number(e.round),
      signerIndexes: e.signerIndexes,
    });
  };
}
