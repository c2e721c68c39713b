/** Waiting for the verdict, then the outcome: done, or another attempt with what to redo. */
import { ApiError, type Summary } from './api.js';
import { toCamera } from './camera.js';
import { confirmDecline } from './consent.js';
import { emit } from './embed.js';
import { $, client, finish, page, show, sleep, stopCamera } from './page.js';

/** What to tell the signer after a failed verdict, per step to redo (never a score). */
const REDO_TEXT: Record<string, string> = {
  face: 'Your face could not be matched: keep your face alone in the frame, well lit, for the whole recording.',
  action: 'A movement was missed: do each movement while it is shown, and keep your head still in between.',
  words: 'The words were not heard: read them aloud clearly while they are shown.',
  light:
    'The screen light on your face was not seen: hold the phone in front of your face, screen brightness up, and avoid strong light behind you.',
  quality: 'The video could not be used: record again with the camera steady and in good light.',
  challenge: 'Too many new challenges were requested in one attempt.',
};

const ERROR_TEXT = 'Your recording could not be checked because of a technical problem on our side. Please record again.';

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
        return finish('This signing session is complete. The sender will be told the outcome; you can close this page.');
      }
      await sleep(4000);
      continue;
    }
    page.summary = s;
    if (s.step === 'passed') {
      emit('verified');
      return finish('Your identity has been verified. You can close this page.');
    }
    if (s.step === 'failed') {
      emit('failed', { attempts_left: 0 });
      return finish('The verification did not succeed and no attempts are left. The sender has been informed.');
    }
    if (s.step === 'challenge' && (s.outcome === 'fail' || s.outcome === 'error')) {
      // error: the recording could not be analysed (a technical failure on our side), no attempt used.
      const error = s.outcome === 'error';
      emit('failed', { attempts_left: s.attempts_left });
      $('retry-left').textContent = error
        ? `No attempt was used. Attempts left: ${s.attempts_left}.`
        : `Attempts left: ${s.attempts_left}.`;
      const list = $('retry-redo');
      list.replaceChildren(
        ...(error ? [ERROR_TEXT] : (s.redo.length ? s.redo : ['face']).map((r) => REDO_TEXT[r] ?? r)).map((text) => {
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
