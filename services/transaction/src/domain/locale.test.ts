import { describe, expect, it } from 'vitest';
import { validateFields } from './creation.js';
import { localeOf, SIGNER_LOCALES } from './locale.js';

const base = {
  signerName: 'Ada',
  signerEmail: 'ada@example.com',
  signerEmails: [] as string[],
  attestationType: '',
  documentName: 'a.pdf',
  signers: [],
};
const ref = new Set<'reference' | number>(['reference']);
const party = { name: 'Ada', email: 'ada@example.com', role: '', order: 1, verification: 'liveness_only', webauthn: false };

describe('signer languages at creation', () => {
  it('takes the eight languages in any case, none when empty, and refuses anything else naming the field', () => {
    expect(SIGNER_LOCALES).toEqual(['en', 'de', 'fr', 'es', 'pl', 'pt', 'ar', 'zh']);
    expect(localeOf(' AR ', 'f')).toBe('ar');
    expect(localeOf('', 'f')).toBeUndefined();
    expect(localeOf(undefined, 'f')).toBeUndefined();
    for (const bad of ['pt-BR', 'it', 'english', 'a\u0000r'])
      expect(() => localeOf(bad, 'signer_locale')).toThrow(/^signer_locale: must be one of en, de/);
  });

  it('gives the one-signer form’s language to each of its signers', () => {
    const f = validateFields({ ...base, signerEmails: ['b@example.com'], signerLocale: 'de' }, ref);
    expect(f.parties.map((p) => p.locale)).toEqual(['de', 'de']);
    expect(validateFields(base, ref).parties[0]).not.toHaveProperty('locale');
    expect(() => validateFields({ ...base, signerLocale: 'xx' }, ref)).toThrow(/^signer_locale: /);
  });

  it('takes each party’s own language (viewers too), names the party when it is wrong, and refuses the form’s field beside a list', () => {
    const listed = {
      ...base,
      signerName: '',
      signerEmail: '',
      signers: [
        { ...party, locale: 'ar' },
        { ...party, email: 'b@example.com', name: 'B' },
        { ...party, email: 'v@example.com', name: 'V', role: 'viewer', verification: '', locale: 'zh' },
      ],
    };
    expect(validateFields(listed, new Set()).parties.map((p) => p.locale)).toEqual(['ar', undefined, 'zh']);
    const wrong = { ...listed, signers: [{ ...party, locale: 'klingon' }] };
    expect(() => validateFields(wrong, new Set())).toThrow(/^signers\[0\] \(ada@example.com\) locale: must be one of/);
    expect(() => validateFields({ ...listed, signerLocale: 'de' }, new Set())).toThrow(/^signer_locale: with signers/);
  });
});
