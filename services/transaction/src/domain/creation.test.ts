import { describe, expect, it } from 'vitest';
import { imageKind, isEmail, looksLikePdf, newReference, newSigningToken, validateFields } from './creation.js';

const base = {
  signerName: 'Ada',
  signerEmail: 'ada@example.com',
  signerEmails: [] as string[],
  attestationType: '',
  documentName: 'a.pdf',
  signers: [],
};
const ref = new Set<'reference' | number>(['reference']);
const signer = { name: 'Ada', email: 'ada@example.com', role: '', order: 1, verification: '', webauthn: false };

describe('creation checks', () => {
  it('requires live by default, takes one requirement for the one-signer form and one per party in the list', () => {
    const one = validateFields({ ...base, signerEmails: ['b@example.com'] }, ref);
    expect(one.parties.map((p) => p.required_assurance)).toEqual(['live', 'live']);
    const recorded = validateFields({ ...base, signerEmails: ['b@example.com'], requiredAssurance: 'recorded' }, ref);
    expect(recorded.parties.map((p) => p.required_assurance)).toEqual(['recorded', 'recorded']);
    // live+webauthn implies the WebAuthn step
    const strict = validateFields({ ...base, requiredAssurance: 'live+webauthn' }, ref);
    expect(strict.parties[0]).toMatchObject({ required_assurance: 'live+webauthn', webauthn: true });
    expect(() => validateFields({ ...base, requiredAssurance: 'selfie' }, ref)).toThrow(
      'required_assurance: must be one of recorded, live, live+webauthn',
    );
    const listed = { ...base, signerName: '', signerEmail: '', signers: [{ ...signer, verification: 'liveness_only' }] };
    expect(() => validateFields({ ...listed, requiredAssurance: 'recorded' }, new Set())).toThrow(/each party gives its own/);
    expect(validateFields(listed, new Set()).parties[0]!.required_assurance).toBe('live');
  });

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
    expect(() => validateFields({ ...base, signerEmail: 'x' }, ref)).toThrow(/signer_email/);
    expect(() => validateFields({ ...base, signerEmails: ['a@b.io', 'c@d.io', 'e@f.io', 'g@h.io', 'i@j.io'] }, ref)).toThrow(
      /signer_emails: at most 4/,
    );
    expect(() => validateFields({ ...base, attestationType: 'notarise' }, ref)).toThrow(/attestation_type/);
    expect(() => validateFields({ ...base, signerName: '' }, ref)).toThrow(/signer_name/);
    expect(() => validateFields({ ...base, signerEmails: ['ADA@example.com'] }, ref)).toThrow(/different email/);
    expect(validateFields(base, ref).attestation_type).toBe('signature');
  });
  it('takes either the one-signer form or the signers list, never both', () => {
    expect(validateFields(base, ref).parties.map((p) => p.verification)).toEqual(['face_match']);
    const listed = { ...base, signerName: '', signerEmail: '', signers: [signer] };
    expect(validateFields(listed, new Set([0])).parties).toHaveLength(1);
    expect(() => validateFields({ ...listed, signerName: 'Ada' }, new Set([0]))).toThrow(/not both/);
    expect(() => validateFields(listed, new Set<'reference' | number>(['reference', 0]))).toThrow(/signer_photo_<index>/);
    expect(() => validateFields(base, new Set<'reference' | number>(['reference', 1]))).toThrow(
      /signer_photo_1: is accepted only with signers/,
    );
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
