/** The signing page's shared state and screen plumbing: the token's client, the forensic log, which screen shows. */
import { api, ApiError, type Summary } from './api.js';
import { forensicLog } from './forensic.js';

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
    fatal(err.detail || 'This signing link is not valid any more.');
    return true;
  }
  return false;
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
