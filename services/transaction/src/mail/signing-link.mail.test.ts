import { describe, expect, it } from 'vitest';
import { signingLinkMail } from './signing-link.mail.js';

const base = { to: 'ada@example.com', orgName: 'Acme', documentName: 'NDA.pdf', signUrl: 'http://x/sign/t', reminder: false };

describe('signingLinkMail', () => {
  it('says TEST in the subject and the body of a test-mode transaction, and nothing of it otherwise', () => {
    const t = signingLinkMail({ ...base, test: true });
    expect(t.subject).toBe('[TEST] Acme asks you to sign "NDA.pdf"');
    expect(t.text).toMatch(/^TEST: this is a test-mode request/);
    expect(t.html).toContain('TEST: this is a test-mode request');
    const live = signingLinkMail(base);
    expect(live.subject).toBe('Acme asks you to sign "NDA.pdf"');
    expect(`${live.text}${live.html}`).not.toContain('TEST');
  });
});
