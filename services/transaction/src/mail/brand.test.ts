import { describe, expect, it } from 'vitest';
import { brandOf } from './brand.js';
import { completionMail } from './completion.mail.js';
import { signingLinkMail } from './signing-link.mail.js';

const link = { to: 'ada@example.com', orgName: 'Acme', documentName: 'NDA.pdf', signUrl: 'http://x/sign/t', reminder: false };
const brand = {
  name: 'Acme <Legal>',
  color: '#123456',
  logoUrl: 'https://sign.example/api/branding/logos/ab',
  replyTo: 'legal@acme.example',
};

describe('branded mails to signers', () => {
  it('the signing link: display name for the organisation, header and button in its colour, logo, Reply-To', () => {
    const m = signingLinkMail({ ...link, brand });
    expect(m.subject).toBe('Acme <Legal> asks you to sign "NDA.pdf"');
    expect(m.replyTo).toBe('legal@acme.example');
    expect(m.html).toContain('<div style="background:#123456;color:#ffffff;');
    expect(m.html).toContain('<img src="https://sign.example/api/branding/logos/ab"');
    expect(m.html).toContain('Acme &#60;Legal&#62;');
    expect(m.html).not.toContain('<Legal>');
    expect(m.html).toMatch(/<a href="http:\/\/x\/sign\/t" style="display:inline-block;background:#123456;color:#ffffff/);
    expect(m.text).toContain('Reply to this email to reach Acme <Legal>.');
  });

  it('unbranded: no header, Signet’s colour, no Reply-To; a bad colour or logo URL is never written', () => {
    const m = signingLinkMail(link);
    expect(m).not.toHaveProperty('replyTo');
    expect(m.html).not.toContain('<img');
    expect(m.html).toContain('background:#0b5cad');
    const odd = signingLinkMail({ ...link, brand: { color: 'red;background:url(x)', logoUrl: 'javascript:alert(1)' } });
    expect(odd.html).not.toContain('url(x)');
    expect(odd.html).not.toContain('javascript:');
  });

  it('the completion mail is branded and in the signer’s language; the sender’s stays plain English', () => {
    const base = {
      to: 'ada@example.com',
      orgName: 'Acme',
      documentName: 'NDA.pdf',
      reference: 'SIG-1',
      downloadUrl: 'http://x/d',
      expiresAt: new Date('2026-12-01T00:00:00Z'),
    };
    const signer = completionMail({ ...base, forSender: false, brand, locale: 'es' });
    expect(signer.subject).toBe('Completado: «NDA.pdf» está firmado (SIG-1)');
    expect(signer.replyTo).toBe('legal@acme.example');
    expect(signer.html).toContain('background:#123456');
    const sender = completionMail({ ...base, forSender: true, brand, locale: 'es' });
    expect(sender.subject).toBe('Completed: "NDA.pdf" is signed (SIG-1)');
    expect(sender).not.toHaveProperty('replyTo');
  });

  it('reads the organisation’s branding as the last event left it, with the logo at the public URL', async () => {
    const brands = {
      get: async (id: string) =>
        id === 'org'
          ? { _id: 'org', display_name: 'Acme', color: '#123456', reply_to: '', logo_sha256: 'f'.repeat(64), at: new Date() }
          : null,
    };
    expect(await brandOf(brands, 'org', 'https://sign.example/')).toEqual({
      name: 'Acme',
      color: '#123456',
      logoUrl: `https://sign.example/api/branding/logos/${'f'.repeat(64)}`,
    });
    expect(await brandOf(brands, 'other', 'https://sign.example')).toBeUndefined();
    expect(await brandOf(undefined, 'org', 'https://sign.example')).toBeUndefined();
    const failing = { get: async () => Promise.reject(new Error('down')) };
    expect(await brandOf(failing, 'org', 'https://sign.example')).toBeUndefined();
  });
});
