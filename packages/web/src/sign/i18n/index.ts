/**
 * The signing page's languages (issue 34 item 5). Messages are ICU (formatjs intl-messageformat);
 * English is bundled, every other catalogue is its own chunk loaded only when the signer needs it.
 * The language is the one the sender chose for the signer (the gateway writes it into
 * `<meta name="signet-locale">`), else the first of the browser's languages we have, else English.
 * Arabic is right to left: `dir="rtl"` on the document, and the stylesheet uses logical properties.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import { en, type MessageKey, type Messages } from './en.js';

export const LOCALES = ['en', 'de', 'fr', 'es', 'pl', 'pt', 'ar', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];
const RTL: ReadonlySet<Locale> = new Set(['ar']);

const loaders: Record<Exclude<Locale, 'en'>, () => Promise<{ messages: Messages }>> = {
  de: () => import('./de.js'),
  fr: () => import('./fr.js'),
  es: () => import('./es.js'),
  pl: () => import('./pl.js'),
  pt: () => import('./pt.js'),
  ar: () => import('./ar.js'),
  zh: () => import('./zh.js'),
};

/** A language tag's supported locale ("pt-BR" → pt, "zh-Hans-CN" → zh), or undefined. */
export function supported(tag: string | undefined | null): Locale | undefined {
  const base = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return (LOCALES as readonly string[]).includes(base ?? '') ? (base as Locale) : undefined;
}

/** The sender's choice when it is one we have, else the browser's first one we have, else English. */
export function pickLocale(chosen: string | undefined, browser: readonly string[]): Locale {
  return supported(chosen) ?? browser.map(supported).find((l) => l !== undefined) ?? 'en';
}

let current: { locale: Locale; messages: Messages } = { locale: 'en', messages: en };
const cache = new Map<string, IntlMessageFormat>();

export const locale = () => current.locale;
export const isRtl = (l: Locale = current.locale) => RTL.has(l);

/** Loads a language (falling back to English when its chunk cannot be loaded) and makes it current. */
export async function useLocale(l: Locale): Promise<void> {
  let messages: Messages = en;
  if (l !== 'en') {
    try {
      messages = (await loaders[l]()).messages;
    } catch {
      l = 'en';
    }
  }
  current = { locale: l, messages };
  cache.clear();
}

/** One message in the current language, formatted with its ICU arguments. */
export function t(key: MessageKey, args?: Record<string, string | number>): string {
  const source = current.messages[key] ?? en[key];
  const id = `${current.locale}\u0000${key}`;
  let f = cache.get(id);
  if (!f) cache.set(id, (f = new IntlMessageFormat(source, current.locale)));
  return String(f.format(args));
}

/** Translates the static page: `data-i18n` (text), `data-i18n-aria` (aria-label); sets lang and dir. */
export function translatePage(root: Document = document): void {
  root.documentElement.lang = current.locale;
  root.documentElement.dir = isRtl() ? 'rtl' : 'ltr';
  root.title = t('page.title');
  for (const el of root.querySelectorAll<HTMLElement>('[data-i18n]')) el.textContent = t(el.dataset.i18n as MessageKey);
  for (const el of root.querySelectorAll<HTMLElement>('[data-i18n-aria]'))
    el.setAttribute('aria-label', t(el.dataset.i18nAria as MessageKey));
}

/** The sender's choice for this signer, as the gateway wrote it into the page. */
export const chosenLocale = () => document.querySelector<HTMLMetaElement>('meta[name="signet-locale"]')?.content || undefined;

export type { MessageKey };
