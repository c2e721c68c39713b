/** Waiting for the verdict, then the outcome: done, or another attempt with what to redo. */
import { ApiError, type Summary } from './api.js';
import { toCamera } from './camera.js';
import { confirmDecline } from './consent.js';
import { emit } from './embed.js';
import { t, type MessageKey } from './i18n/index.js';
import { $, client, finish, page, show, sleep, stopCamera } from './page.js';

/** What to tell the signer after a failed verdict, per step to redo (never a score). */
const REDO = new Set(['face', 'action', 'words', 'light', 'quality', 'challenge']);
const redoText = (r: string) => (REDO.has(r) ? t(`redo.${r}` as MessageKey) : r);

export async function verifying() {
  show('verifying');
  const began = performance.now();
  const bar = $<HTMLProgressElement>('verify-progress');
  // Progress while the analysis runs (it takes some seconds): time-based, it never claims done.
  const tick = window.setInterval(() => {
    bar.value = Math.min(95, Math.round((100 * (performance.now() - began)) / 15_000));
  }, 500);
  try {
    await pollVerdict();
  } finally {
    window.clearInterval(tick);
  }
}

export async function pollVerdict() {
  for (;;) {
    let s: Summary;
    try {
      s = await client.summary();
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        stopCamera();
        return finish(t('done.complete'));
      }
      await sleep(4000);
      continue;
    }
    page.summary = s;
    if (s.step === 'passed') {
      emit('verified');
      return finish(t('done.passed'));
    }
    if (s.step === 'failed') {
      emit('failed', { attempts_left: 0 });
      return finish(t('done.failed'));
    }
    if (s.step === 'challenge' && (s.outcome === 'fail' || s.outcome === 'error')) {
      // error: the recording could not be analysed (a technical failure on our side), no attempt used.
      const error = s.outcome === 'error';
      emit('failed', { attempts_left: s.attempts_left });
      $('retry-left').textContent = t(error ? 'retry.noAttemptUsed' : 'retry.left', { count: s.attempts_left });
      const list = $('retry-redo');
      list.replaceChildren(
        ...(error ? [t('redo.error')] : (s.redo.length ? s.redo : ['face']).map(redoText)).map((text) => {
          const li = document.createElement('li');
          li.textContent = text;
          return li;
        }),
      );
      $('retry-go').onclick = () => void toCamera();
      $('retry-decline').onclick = () => {
        stopCamera();
        confirmDecline(() => void toCamera());
      };
      return show('retry');
    }
    await sleep(2000);
  }
}
