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
}): Mail {
  const org = orgOf(p.orgName);
  const when = `${p.due.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const who = `${p.signer.name} <${p.signer.email}>`;
  const line = `${who} asked for their biometric data (face and voice recordings, their reference photo) of "${p.documentName}" (${p.reference}) to be erased. It will be erased on ${when}.`;
  const keep = 'The certificate, the signed PDF and its audit trail stay and keep verifying: they hold no biometric data.';
  const footer = `You receive this because you sent this document for signature with ${org} on Signet.`;
  const text = [`${org}:`, '', line, '', keep, '', `Details: ${p.dashboardUrl}`, '', footer].join('\n');
  const html = htmlPage(
    [`<strong>${esc(org)}</strong>: ${esc(line)}`, esc(keep), `<a href="${esc(p.dashboardUrl)}">View the transaction</a>`],
    [esc(footer)],
  );
  return { to: p.to, subject: `${org}: a signer asked for erasure of their biometric data (${p.reference})`, text, html };
}
