import type { Mail } from '@signet/kit';
import { brandedPage, button, esc, type MailBrand } from './layout.js';
import { isRtl, mailLocale, translator } from './i18n/index.js';

/**
 * The signing-link email: org name, document name and the link; nothing about biometrics beyond the
 * ceremony itself. In the signer's language (English when the sender chose none) and the account's
 * branding (its display name replaces the organisation's, its Reply-To answers the signer).
 */
export function signingLinkMail(p: {
  to: string;
  orgName: string;
  documentName: string;
  signUrl: string;
  reminder: boolean;
  /** A test-mode transaction: the mail says TEST (no real signing, no legal effect). */
  test?: boolean;
  /** The signer's language as the sender chose it; absent: English. */
  locale?: string;
  brand?: MailBrand;
}): Mail {
  const lang = mailLocale(p.locale);
  const tr = translator(lang);
  const org = p.brand?.name || p.orgName || tr('org.unknown');
  const args = { org, document: p.documentName };
  const subject = `${p.test ? tr('test.prefix') : ''}${tr('link.subject', { ...args, reminder: p.reminder ? 'yes' : 'no' })}`;
  const testNote = tr('link.test');
  const text = [
    ...(p.test ? [testNote, ''] : []),
    tr('link.lead', args),
    '',
    tr('link.open'),
    p.signUrl,
    '',
    tr('link.personal'),
    ...(p.brand?.replyTo ? ['', tr('reply.to', { org })] : []),
  ].join('\n');
  const html = brandedPage({
    lang,
    rtl: isRtl(lang),
    brand: p.brand,
    paragraphs: [
      ...(p.test ? [`<strong>${esc(testNote)}</strong>`] : []),
      esc(tr('link.lead', args)),
      button(p.signUrl, tr('link.button'), p.brand),
    ],
    notes: [
      `${esc(tr('link.paste'))} ${esc(p.signUrl)}`,
      esc(tr('link.personal')),
      ...(p.brand?.replyTo ? [esc(tr('reply.to', { org }))] : []),
    ],
  });
  return { to: p.to, subject, text, html, ...(p.brand?.replyTo ? { replyTo: p.brand.replyTo } : {}) };
}
