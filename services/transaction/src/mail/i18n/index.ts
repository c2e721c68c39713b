/**
 * The languages of the mails to signers and viewers (issue 34 item 5): the one the sender chose for
 * the recipient at creation, else English. ICU messages through formatjs intl-messageformat; every
 * catalogue is bundled (the service is small and mails any of them). Arabic mails are right to left.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { messages as ar } from './ar.js';
import { messages as de } from './de.js';
import { en, type MailKey, type MailMessages } from './en.js';
import { messages as es } from './es.js';
import { messages as fr } from './fr.js';
import { messages as pl } from './pl.js';
import { messages as pt } from './pt.js';
import { messages as zh } from './zh.js';

export const MAIL_LOCALES = { en, de, fr, es, pl, pt, ar, zh } satisfies Record<string, MailMessages>;
export type MailLocale = keyof typeof MAIL_LOCALES;

/** The recipient's language as stored (absent or unknown: English). */
export const mailLocale = (l: string | undefined): MailLocale => (l && Object.hasOwn(MAIL_LOCALES, l) ? (l as MailLocale) : 'en');

export const isRtl = (l: MailLocale) => l === 'ar';

const cache = new Map<string, IntlMessageFormat>();

/** A translator for one language: `tr(key, args)` formats that language's ICU message. */
export function translator(locale: string | undefined) {
  const l = mailLocale(locale);
  return (key: MailKey, args?: Record<string, string | number>): string => {
    const id = `${l}\u0000${key}`;
    let f = cache.get(id);
    if (!f) cache.set(id, (f = new IntlMessageFormat(MAIL_LOCALES[l][key], l)));
    return String(f.format(args));
  };
}

export type { MailKey };
