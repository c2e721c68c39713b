/**
 * The mails to signers and viewers in English, the reference catalogue (ICU messages): every other
 * language has exactly these keys with the same arguments (i18n.test.ts). Keep them short and plain.
 */
export const en = {
  'org.unknown': 'A Signet user',
  'test.prefix': '[TEST] ',
  'link.subject': '{reminder, select, yes {Reminder: } other {}}{org} asks you to sign "{document}"',
  'link.test': 'TEST: this is a test-mode request; signing it has no legal effect and no real certificate is issued.',
  'link.lead': '{org} has asked you to sign the document "{document}".',
  'link.open': 'Open this link to review and sign it:',
  'link.button': 'Review and sign the document',
  'link.paste': 'Or paste this link into your browser:',
  'link.personal': 'The link is personal: do not forward it. If you did not expect this request, you can ignore this email.',
  'done.subject': 'Completed: "{document}" is signed ({reference})',
  'done.test':
    'TEST: this is a test-mode transaction; no signing ceremony ran, the signed PDF is marked TEST on every page and has no legal effect.',
  'done.lead': '"{document}", which {org} asked you to sign, is now signed by everyone.',
  'done.document': 'the document',
  'done.certificate': 'Certificate {reference}.',
  'done.download': 'Download the signed PDF',
  'done.contents': '(the document, its audit trail and the evidence, sealed with a trusted timestamp)',
  'done.until': 'The link works until {date} (UTC). Anyone can check the certificate at the verify page named in the PDF.',
  'done.erasure': 'Your face and voice recordings from the signing are kept for a limited time.',
  'done.erasureLink': 'Ask for them to be erased (the sender is told first)',
  'sent.by': 'Sent by Signet on behalf of {org}.',
  'reply.to': 'Questions? Reply to this email to reach {org}.',
} as const;

export type MailKey = keyof typeof en;
export type MailMessages = Record<MailKey, string>;
