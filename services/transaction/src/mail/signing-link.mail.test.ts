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

  it('is written in the signer’s language, Arabic right to left; none or an unknown one: English', () => {
    const ar = signingLinkMail({ ...base, locale: 'ar', reminder: true });
    expect(ar.subject).toBe('تذكير: Acme يطلب منك توقيع «NDA.pdf»');
    expect(ar.html).toMatch(/^<!doctype html><html lang="ar" dir="rtl">/);
    expect(ar.text).toContain('http://x/sign/t');
    const zh = signingLinkMail({ ...base, locale: 'zh' });
    expect(zh.subject).toBe('Acme 请您签署“NDA.pdf”');
    expect(zh.html).toContain('lang="zh" dir="ltr"');
    expect(signingLinkMail({ ...base, locale: 'xx' }).subject).toBe('Acme asks you to sign "NDA.pdf"');
  });

  it('escapes what the sender wrote in every language', () => {
    const m = signingLinkMail({ ...base, locale: 'fr', orgName: '<b>Evil</b>', documentName: '"><script>.pdf' });
    expect(m.html).not.toContain('<b>Evil</b>');
    expect(m.html).not.toContain('<script>');
    expect(m.html).toContain('&#60;b&#62;Evil');
  });
});
