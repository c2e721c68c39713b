import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { messages as ar } from './ar.js';
import { messages as de } from './de.js';
import { en } from './en.js';
import { messages as es } from './es.js';
import { messages as fr } from './fr.js';
import { LOCALES, pickLocale, supported, t, useLocale } from './index.js';
import { messages as pl } from './pl.js';
import { messages as pt } from './pt.js';
import { messages as zh } from './zh.js';

const catalogues: Record<string, Record<string, string>> = { en, de, fr, es, pl, pt, ar, zh };

type El = { type: number; value?: string; options?: Record<string, { value: El[] }> };
/** A message's ICU arguments: name and kind, and a select's option keys, sorted. */
function argumentsOf(source: string, locale: string): string[] {
  const out = new Set<string>();
  const walk = (els: El[]) => {
    for (const e of els) {
      if (e.type === 0 || e.type === 7) continue;
      out.add(`${e.value}:${e.type}`);
      // A select's options are the same in every language; a plural's follow the language's rules.
      for (const [k, o] of Object.entries(e.options ?? {})) {
        if (e.type === 5) out.add(`${e.value}:${e.type}:${k}`);
        walk(o.value);
      }
    }
  };
  walk(new IntlMessageFormat(source, locale).getAst() as El[]);
  return [...out].sort();
}

describe('signing page messages', () => {
  it('has a catalogue for every supported language', () => {
    expect(Object.keys(catalogues).sort()).toEqual([...LOCALES].sort());
  });

  for (const [locale, messages] of Object.entries(catalogues)) {
    it(`${locale}: every key of English, no other, each with the same ICU arguments`, () => {
      expect(Object.keys(messages).sort()).toEqual(Object.keys(en).sort());
      for (const [key, source] of Object.entries(en)) {
        const translated = messages[key]!;
        expect(translated.trim(), `${locale} ${key}`).not.toBe('');
        expect(argumentsOf(translated, locale), `${locale} ${key}`).toEqual(argumentsOf(source, 'en'));
      }
    });
  }

  it('a changed argument name is caught (the check can fail)', () => {
    expect(argumentsOf('Attempts left: {count, number}.', 'en')).not.toEqual(argumentsOf('Reste : {n, number}.', 'fr'));
    expect(argumentsOf('{r, select, yes {a} other {b}}', 'en')).not.toEqual(argumentsOf('{r, select, ja {a} other {b}}', 'de'));
  });

  it('picks the sender’s choice, else the browser’s first supported language, else English', () => {
    expect(pickLocale('ar', ['de-DE'])).toBe('ar');
    expect(pickLocale(undefined, ['it-IT', 'pt-BR', 'de'])).toBe('pt');
    expect(pickLocale('', ['zh-Hans-CN'])).toBe('zh');
    expect(pickLocale('xx', ['it', 'nl'])).toBe('en');
    expect(supported('PL')).toBe('pl');
    expect(supported('en_GB')).toBe('en');
    expect(supported(undefined)).toBeUndefined();
  });

  it('formats ICU arguments in the current language', async () => {
    await useLocale('de');
    expect(t('preview.attempts', { count: 2 })).toBe('Verbleibende Versuche: 2.');
    expect(t('webauthn.failed', { reason: 'x', required: 'yes' })).toContain('Der Absender verlangt sie');
    await useLocale('ar');
    expect(t('retry.left', { count: 3 })).toMatch(/^المحاولات المتبقية: [3٣]\.$/);
    await useLocale('en');
    expect(t('record.action', { number: 1, count: 3, action: 'Smile' })).toBe('1 of 3: Smile');
  });
});
