import { describe, expect, it } from 'vitest';
import { imageKind, isEmail, looksLikePdf, newReference, newSigningToken, validateFields } from './creation.js';

const base = { signerName: 'Ada', signerEmail: 'ada@example.com', signerEmails: [], attestationType: '', documentName: 'a.pdf' };

describe('creation checks', () => {
  it('decides PDF on the first five bytes', () => {
    expect(looksLikePdf(Buffer.from('%P'))).toBeUndefined();
    expect(looksLikePdf(Buffer.from('%PDF-1.7'))).toBe(true);
    expect(looksLikePdf(Buffer.from('GIF'))).toBe(false);
  });
  it('recognises JPEG and PNG by magic bytes only', () => {
    expect(imageKind(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(imageKind(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(imageKind(Buffer.from([0x89, 0x50]))).toBeUndefined();
    expect(imageKind(Buffer.from('GIF89a'))).toBeNull();
  });
  it('names the field of each bad input', () => {
    expect(() => validateFields({ ...base, signerEmail: 'x' })).toThrow(/signer_email/);
    expect(() => validateFields({ ...base, signerEmails: ['a@b.io', 'c@d.io', 'e@f.io', 'g@h.io', 'i@j.io'] })).toThrow(
      /signer_emails: at most 4/,
    );
    expect(() => validateFields({ ...base, attestationType: 'notarise' })).toThrow(/attestation_type/);
    expect(() => validateFields({ ...base, signerName: '' })).toThrow(/signer_name/);
    expect(() => validateFields({ ...base, signerEmails: ['ADA@example.com'] })).toThrow(/different email/);
    expect(validateFields(base).attestation_type).toBe('signature');
  });
  it('emails', () => {
    expect(isEmail('a.b+c@sub.example.co')).toBe(true);
    expect(isEmail('a@b')).toBe(false);
    expect(isEmail('a b@example.com')).toBe(false);
  });
  it('references and tokens have the promised shape', () => {
    expect(newReference('SIG')).toMatch(/^SIG-TX-\d{8}$/);
    const t = newSigningToken();
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(t, 'base64url')).toHaveLength(32);
  });
});
