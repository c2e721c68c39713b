import type { Mail } from '@signet/kit';
import { esc, htmlPage, orgOf } from './layout.js';

/**
 * The sender's notice that a signer asked for their biometric data to be erased (issue 21): which
 * transaction, which signer, when the data goes. The certificate, the signed PDF and the audit trail
 * stay (they hold no biometric data); nothing for the sender to do unless they must keep the data
 * (e.g. a legal hold, which they settle with the signer before the date).
 */
export function erasureNoticeMail(p: {
  to: string;
  orgName: string;
  documentName: string;
  reference: string;
  signer: { name: string; email: string };
  due: Date;
  dashboardUrl: string;
  /** The transaction's legal hold: the erasure waits until the sender releases it. */
  legalHold?: { since: Date } | null;
}): Mail {
  const org = orgOf(p.orgName);
  const when = `${p.due.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const who = `${p.signer.name} <${p.signer.email}>`;
  const held = p.legalHold
    ? ` The transaction is on legal hold since ${new Date(p.legalHold.since).toISOString().slice(0, 10)}: the data is kept while the hold lasts and erased once you release it (not before ${when}).`
    : ` It will be erased on ${when}.`;
  const line = `${who} asked for their biometric data (face and voice recordings, their reference photo) of "${p.documentName}" (${p.reference}) to be erased.${held}`;
  const keep = 'The certificate, the signed PDF and its audit trail stay and keep verifying: they hold no biometric data.';
  const footer = `You receive this because you sent this document for signature with ${org} on Signet.`;
  const text = [`${org}:`, '', line, '', keep, '', `Details: ${p.dashboardUrl}`, '', footer].join('\n');
  const html = htmlPage(
    [`<strong>${esc(org)}</strong>: ${esc(line)}`, esc(keep), `<a href="${esc(p.dashboardUrl)}">View the transaction</a>`],
    [esc(footer)],
  );
  return { to: p.to, subject: `${org}: a signer asked for erasure of their biometric data (${p.reference})`, text, html };
}
