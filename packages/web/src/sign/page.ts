/** The signing page's shared state and screen plumbing: the token's client, the forensic log, which screen shows. */
import { api, ApiError, type Summary } from './api.js';
import { forensicLog } from './forensic.js';
import { locale, t } from './i18n/index.js';

export type Screen =
  | 'loading'
  | 'error'
  | 'fields'
  | 'consent'
  | 'decline'
  | 'camera'
  | 'preview'
  | 'webauthn'
  | 'record'
  | 'upload'
  | 'verifying'
  | 'retry'
  | 'done';

export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
export const token = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');
export const client = api(token);
export const log = forensicLog((events) => client.forensic(events));
export const started = performance.now();

/** What the page knows: the latest summary, and the camera stream once open. */
export const page: { summary?: Summary; stream?: MediaStream } = {};

export function show(screen: Screen, announce?: string) {
  for (const s of document.querySelectorAll<HTMLElement>('section[data-screen]')) s.hidden = s.dataset.screen !== screen;
  document.body.dataset.current = screen;
  const h = document.querySelector<HTMLElement>(`[data-screen="${screen}"] h1`);
  h?.focus();
  $('status').textContent = announce ?? h?.textContent ?? '';
  log.add('timing', { screen, ms: Math.round(performance.now() - started) });
}

export function fatal(message: string, retry?: () => void) {
  $('error-text').textContent = message;
  const b = $<HTMLButtonElement>('error-retry');
  b.hidden = !retry;
  b.onclick = retry ? () => retry() : null;
  show('error');
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function gone(err: unknown): boolean {
  if (err instanceof ApiError && err.status === 404) {
    stopCamera();
    // The service's words (why the link ended) in English; the page's own in any other language.
    fatal(locale() === 'en' && err.detail ? err.detail : t('error.gone'));
    return true;
  }
  return false;
}

/**
 * What to tell the signer about a failed call: the page's own words for a network failure (status 0,
 * already translated), the service's detail in English, else a translated message with the status.
 */
export function errorText(err: unknown): string {
  if (err instanceof ApiError)
    return err.status === 0 || locale() === 'en' ? err.detail : t('error.failed', { status: err.status });
  return locale() === 'en' ? (err as Error).message : t('error.failed', { status: 0 });
}

export function stopCamera() {
  for (const t of page.stream?.getTracks() ?? []) t.stop();
  page.stream = undefined;
}

export function finish(message: string) {
  stopCamera();
  log.stop();
  $('done-text').textContent = message;
  show('done');
}
