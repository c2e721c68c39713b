import type { Mail } from '@signet/kit';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The signing-link email: org name, document name and the link; nothing about biometrics beyond the ceremony itself. */
export function signingLinkMail(p: {
  to: string;
  orgName: string;
  documentName: string;
  signUrl: string;
  reminder: boolean;
  /** A test-mode transaction: the mail says TEST (no real signing, no legal effect). */
  test?: boolean;
}): Mail {
  const org = p.orgName || 'A Signet user';
  const subject = `${p.test ? '[TEST] ' : ''}${p.reminder ? 'Reminder: ' : ''}${org} asks you to sign "${p.documentName}"`;
  const testNote = 'TEST: this is a test-mode request; signing it has no legal effect and no real certificate is issued.';
  const text = [
    ...(p.test ? [testNote, ''] : []),
    `${org} has asked you to sign the document "${p.documentName}".`,
    '',
    'Open this link to review and sign it:',
    p.signUrl,
    '',
    'The link is personal: do not forward it. If you did not expect this request, you can ignore this email.',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif">
${
  p.test
    ? `<p><strong>${esc(testNote)}</strong></p>
`
    : ''
}<p><strong>${esc(org)}</strong> has asked you to sign the document <strong>&ldquo;${esc(p.documentName)}&rdquo;</strong>.</p>
<p><a href="${esc(p.signUrl)}">Review and sign the document</a></p>
<p style="color:#555">Or paste this link into your browser: ${esc(p.signUrl)}</p>
<p style="color:#555">The link is personal: do not forward it. If you did not expect this request, you can ignore this email.</p>
</body></html>`;
  return { to: p.to, subject, text, html };
}
