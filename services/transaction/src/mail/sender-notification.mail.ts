import type { Mail } from '@signet/kit';
import { esc, htmlPage, orgOf } from './layout.js';

export type SenderEvent = 'signer_passed' | 'signer_failed' | 'signer_declined' | 'expired' | 'sealing_failed';

/**
 * The sender's notice that a signer finished (passed), failed or declined, that the transaction
 * expired, or that its signed PDF can never be sealed: organisation, document, reference, who and why, and a link to the transaction in the
 * dashboard. Never a signing link, face or document. Completion mails are mail/completion*.ts.
 */
export function senderNotificationMail(p: {
  to: string;
  event: SenderEvent;
  orgName: string;
  documentName: string;
  reference: string;
  signer?: { name: string; email: string };
  reason?: string;
  dashboardUrl: string;
}): Mail {
  const org = orgOf(p.orgName);
  const who = p.signer ? `${p.signer.name} <${p.signer.email}>` : '';
  const doc = `"${p.documentName}" (${p.reference})`;
  const [subject, line] = {
    signer_passed: [`${p.signer?.name ?? 'A signer'} signed "${p.documentName}"`, `${who} completed signing ${doc}.`],
    signer_failed: [
      `${p.signer?.name ?? 'A signer'} could not be verified for "${p.documentName}"`,
      `${who} failed identity verification for ${doc}; the transaction has stopped.`,
    ],
    signer_declined: [
      `${p.signer?.name ?? 'A signer'} declined to sign "${p.documentName}"`,
      `${who} declined to sign ${doc}; the transaction has stopped.`,
    ],
    expired: [
      `"${p.documentName}" expired before it was signed`,
      `The signing request for ${doc} expired before every signer finished; its signing links no longer work.`,
    ],
    sealing_failed: [
      `The signed PDF of "${p.documentName}" could not be produced`,
      `Every signer finished ${doc} and its certificate is issued and verifiable, but the signed PDF could not be produced.`,
    ],
  }[p.event] as [string, string];
  const reason =
    p.event === 'signer_declined'
      ? p.reason
        ? `Reason given: ${p.reason}`
        : 'No reason was given.'
      : p.event === 'sealing_failed'
        ? `Why: ${p.reason ?? 'sealing failed'}. Send the document again as an unencrypted, undamaged PDF if you need a signed copy.`
        : '';
  const footer = `You receive this because you sent this document for signature with ${org} on Signet.`;
  const text = [`${org}:`, '', line, ...(reason ? ['', reason] : []), '', `Details: ${p.dashboardUrl}`, '', footer].join('\n');
  const html = htmlPage(
    [
      `<strong>${esc(org)}</strong>: ${esc(line)}`,
      ...(reason ? [esc(reason)] : []),
      `<a href="${esc(p.dashboardUrl)}">View the transaction</a>`,
    ],
    [esc(footer)],
  );
  return { to: p.to, subject: `${org}: ${subject}`, text, html };
}
