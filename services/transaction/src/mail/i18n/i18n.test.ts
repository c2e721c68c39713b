import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { en } from './en.js';
import { MAIL_LOCALES, mailLocale, translator } from './index.js';

type El = { type: number; value?: string; options?: Record<string, { value: El[] }> };
/** A message's ICU arguments: name and kind, and a select's option keys, sorted. */
function argumentsOf(source: string, locale: string): string[] {
  const out = new Set<string>();
  const walk = (els: El[]) => {
    for (const e of els) {
      if (e.type === 0 || e.type === 7) continue;
      out.add(`${e.value}:${e.type}`);
      for (const [k, o] of Object.entries(e.options ?? {})) {
        out.add(`${e.value}:${e.type}:${k}`);
        walk(o.value);
      }
    }
  };
  walk(new IntlMessageFormat(source, locale).getAst() as El[]);
  return [...out].sort();
}

describe('signer mail messages', () => {
  it('has the eight languages of the signing page', () => {
    expect(Object.keys(MAIL_LOCALES).sort()).toEqual(['ar', 'de', 'en', 'es', 'fr', 'pl', 'pt', 'zh']);
  });

  for (const [locale, messages] of Object.entries(MAIL_LOCALES)) {
    it(`${locale}: every key of English, no other, each with the same ICU arguments`, () => {
      expect(Object.keys(messages).sort()).toEqual(Object.keys(en).sort());
      for (const [key, source] of Object.entries(en)) {
        const translated = (messages as Record<string, string>)[key]!;
        expect(translated.trim(), `${locale} ${key}`).not.toBe('');
        expect(argumentsOf(translated, locale), `${locale} ${key}`).toEqual(argumentsOf(source, 'en'));
      }
    });
  }

  it('falls back to English for a missing or unknown language', () => {
    expect(mailLocale(undefined)).toBe('en');
    expect(mailLocale('xx')).toBe('en');
    expect(mailLocale('toString')).toBe('en');
    expect(translator('pl')('link.subject', { reminder: 'yes', org: 'Acme', document: 'a.pdf' })).toBe(
      'Przypomnienie: Acme prosi o podpisanie „a.pdf”',
    );
  });
});
