import type { Mail } from '@signet/kit';
import { brandedPage, button, esc, type MailBrand } from './layout.js';
import { isRtl, mailLocale, translator } from './i18n/index.js';

const enc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The completion mail (issue 17): every signer has passed, the certificate is issued and the signed
 * PDF sealed; the link downloads it (the original document, its audit trail and the evidence) until
 * it expires. To a signer and to the sender alike; `forSender` only changes the wording. A signer's
 * or viewer's mail is in their language (the sender's choice at creation; English otherwise) with
 * the account's branding; the sender's stays English.
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
  /** The recipient's language (signers and viewers); absent: English. */
  locale?: string;
  brand?: MailBrand;
}): Mail {
  if (p.forSender) return senderCompletionMail(p);
  const lang = mailLocale(p.locale);
  const tr = translator(lang);
  const org = p.brand?.name || p.orgName || tr('org.unknown');
  const doc = p.documentName || tr('done.document');
  const date = p.expiresAt.toISOString().slice(0, 10);
  const subject = `${p.test ? tr('test.prefix') : ''}${tr('done.subject', { document: doc, reference: p.reference })}`;
  const testNote = tr('done.test');
  const lead = tr('done.lead', { document: doc, org });
  const text = [
    ...(p.test ? [testNote, ''] : []),
    lead,
    '',
    `${tr('done.certificate', { reference: p.reference })} ${tr('done.download')} ${tr('done.contents')}:`,
    p.downloadUrl,
    '',
    tr('done.until', { date }),
    ...(p.erasureUrl ? ['', `${tr('done.erasure')} ${tr('done.erasureLink')}:`, p.erasureUrl] : []),
    '',
    tr('sent.by', { org }),
    ...(p.brand?.replyTo ? [tr('reply.to', { org })] : []),
  ].join('\n');
  const html = brandedPage({
    lang,
    rtl: isRtl(lang),
    brand: p.brand,
    paragraphs: [
      ...(p.test ? [`<strong>${esc(testNote)}</strong>`] : []),
      esc(lead),
      esc(tr('done.certificate', { reference: p.reference })),
      `${button(p.downloadUrl, tr('done.download'), p.brand)} ${esc(tr('done.contents'))}`,
    ],
    notes: [
      `${esc(tr('link.paste'))} ${esc(p.downloadUrl)}`,
      ...(p.erasureUrl ? [`${esc(tr('done.erasure'))} <a href="${esc(p.erasureUrl)}">${esc(tr('done.erasureLink'))}</a>`] : []),
      `${esc(tr('done.until', { date }))} ${esc(tr('sent.by', { org }))}`,
      ...(p.brand?.replyTo ? [esc(tr('reply.to', { org }))] : []),
    ],
  });
  return { to: p.to, subject, text, html, ...(p.brand?.replyTo ? { replyTo: p.brand.replyTo } : {}) };
}

/** The sender's completion mail, in English (the sender's own language is not known). */
function senderCompletionMail(p: Parameters<typeof completionMail>[0]): Mail {
  const org = p.orgName || 'A Signet user';
  const doc = p.documentName || 'the document';
  const expires = p.expiresAt.toISOString().slice(0, 10);
  const subject = `${p.test ? '[TEST] ' : ''}Completed: "${doc}" is signed (${p.reference})`;
  const testNote =
    'TEST: this is a test-mode transaction; no signing ceremony ran, the signed PDF is marked TEST on every page and has no legal effect.';
  const lead = `Every signer of "${doc}" has signed and passed verification.`;
  const text = [
    ...(p.test ? [testNote, ''] : []),
    lead,
    '',
    `Certificate ${p.reference}. Download the signed PDF (the document, its audit trail and the evidence, sealed with a trusted timestamp):`,
    p.downloadUrl,
    '',
    `The link works until ${expires} (UTC). Anyone can check the certificate at the verify page named in the PDF.`,
    '',
    `Sent by Signet on behalf of ${org}.`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif">
${p.test ? `<p><strong>${enc(testNote)}</strong></p>\n` : ''}<p>${enc(lead)}</p>
<p>Certificate <strong>${enc(p.reference)}</strong>.</p>
<p><a href="${enc(p.downloadUrl)}">Download the signed PDF</a> (the document, its audit trail and the evidence, sealed with a trusted timestamp)</p>
<p style="color:#555">Or paste this link into your browser: ${enc(p.downloadUrl)}</p>
<p style="color:#555">The link works until ${enc(expires)} (UTC). Sent by Signet on behalf of <strong>${enc(org)}</strong>.</p>
</body></html>`;
  return { to: p.to, subject, text, html };
}
