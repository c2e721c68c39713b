import type { Mail } from '@signet/kit';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The completion mail (issue 17): every signer has passed, the certificate is issued and the signed
 * PDF sealed; the link downloads it (the original document, its audit trail and the evidence) until
 * it expires. To a signer and to the sender alike; `forSender` only changes the wording.
 */
export function completionMail(p: {
  to: string;
  orgName: string;
  documentName: string;
  reference: string;
  downloadUrl: string;
  expiresAt: Date;
  forSender: boolean;
  /** A signer's own link to ask for their biometric data to be erased (issue 21); none for the sender and viewers. */
  erasureUrl?: string;
  /** A test-mode transaction (issue 32): the mail and the PDF say TEST (no ceremony ran, no legal effect). */
  test?: boolean;
}): Mail {
  const org = p.orgName || 'A Signet user';
  const doc = p.documentName || 'the document';
  const expires = p.expiresAt.toISOString().slice(0, 10);
  const subject = `${p.test ? '[TEST] ' : ''}Completed: "${doc}" is signed (${p.reference})`;
  const testNote =
    'TEST: this is a test-mode transaction; no signing ceremony ran, the signed PDF is marked TEST on every page and has no legal effect.';
  const lead = p.forSender
    ? `Every signer of "${doc}" has signed and passed verification.`
    : `"${doc}", which ${org} asked you to sign, is now signed by everyone.`;
  const text = [
    ...(p.test ? [testNote, ''] : []),
    lead,
    '',
    `Certificate ${p.reference}. Download the signed PDF (the document, its audit trail and the evidence, sealed with a trusted timestamp):`,
    p.downloadUrl,
    '',
    `The link works until ${expires} (UTC). Anyone can check the certificate at the verify page named in the PDF.`,
    ...(p.erasureUrl
      ? [
          '',
          'Your face and voice recordings from the signing are kept for a limited time. To have them erased sooner (the sender is told first), open:',
          p.erasureUrl,
        ]
      : []),
    '',
    `Sent by Signet on behalf of ${org}.`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif">
${p.test ? `<p><strong>${esc(testNote)}</strong></p>\n` : ''}<p>${esc(lead)}</p>
<p>Certificate <strong>${esc(p.reference)}</strong>.</p>
<p><a href="${esc(p.downloadUrl)}">Download the signed PDF</a> (the document, its audit trail and the evidence, sealed with a trusted timestamp)</p>
<p style="color:#555">Or paste this link into your browser: ${esc(p.downloadUrl)}</p>
${p.erasureUrl ? `<p style="color:#555">Your face and voice recordings from the signing are kept for a limited time. <a href="${esc(p.erasureUrl)}">Ask for them to be erased</a> (the sender is told first).</p>\n` : ''}<p style="color:#555">The link works until ${esc(expires)} (UTC). Sent by Signet on behalf of <strong>${esc(org)}</strong>.</p>
</body></html>`;
  return { to: p.to, subject, text, html };
}
