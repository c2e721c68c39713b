import { fieldInvalid } from './errors.js';

/**
 * The languages of the signing page and the signers' mails (issue 34 item 5). The sender may choose
 * one per signer at creation; none chosen: the page follows the signer's browser and mails are in
 * English. Anything else is refused (a language we do not have would silently become English).
 */
export const SIGNER_LOCALES = ['en', 'de', 'fr', 'es', 'pl', 'pt', 'ar', 'zh'] as const;
export type SignerLocale = (typeof SIGNER_LOCALES)[number];

/** The locale as asked (case-insensitive; empty: none), checked; `field` names it in the error. */
export function localeOf(raw: string | undefined, field: string): SignerLocale | undefined {
  const asked = (raw ?? '').trim().toLowerCase();
  if (!asked) return undefined;
  if (!(SIGNER_LOCALES as readonly string[]).includes(asked))
    throw fieldInvalid(field, `must be one of ${SIGNER_LOCALES.join(', ')}`);
  return asked as SignerLocale;
}
