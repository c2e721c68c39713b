/** The optional device confirmation (before the recording), and the finish upload with retries. */
import type { ApiError } from './api.js';
import { toPreview } from './camera.js';
import { emit } from './embed.js';
import { locale, t } from './i18n/index.js';
import { $, client, gone, log, page, show, sleep } from './page.js';
import { verifying } from './result.js';
import { runWebauthn } from './webauthn.js';

/**
 * Before the recording: the optional device confirmation, bound to the nonce of the challenge the
 * recording will use. Resolves true to go on (confirmed, or skipped where allowed), false when the
 * signing session is gone.
 */
export function offerWebauthn(): Promise<boolean> {
  const err = $('webauthn-error');
  err.hidden = true;
  // Required by the sender (issue 18): no skip; the capture would be refused without it.
  const required = !!page.summary?.webauthn_required;
  $('webauthn-skip').hidden = required;
  show('webauthn');
  return new Promise((done) => {
    $('webauthn-skip').onclick = () => {
      log.add('timing', { webauthn: 'skipped' });
      done(true);
    };
    $('webauthn-use').onclick = async () => {
      try {
        const o = await client.webauthnOptions();
        const response = await runWebauthn(o.kind, o.options);
        await client.webauthnVerify(response);
        log.add('timing', { webauthn: 'done' });
        done(true);
      } catch (e) {
        if (gone(e)) return done(false);
        err.textContent = t('webauthn.failed', { reason: (e as Error).name || 'error', required: required ? 'yes' : 'no' });
        err.hidden = false;
      }
    };
  });
}

export async function finishCapture(nonce: string, frame: Blob) {
  const text = $('upload-text');
  const retry = $<HTMLButtonElement>('upload-retry');
  retry.hidden = true;
  $<HTMLProgressElement>('upload-progress').removeAttribute('value');
  show('upload');
  emit('recorded');
  for (let attempt = 1; ; attempt++) {
    try {
      text.textContent = t('upload.sending');
      const r = await client.finish(nonce, frame);
      log.add('timing', { upload: 'done', tries: attempt, assurance: r.assurance });
      void log.flush();
      emit('submitted');
      return void verifying();
    } catch (err) {
      if (gone(err)) return;
      const e = err as ApiError;
      if (e.status && e.status < 500 && e.status !== 429) {
        text.textContent = locale() === 'en' ? `The recording was not accepted: ${e.detail}` : t('upload.refused');
        retry.textContent = t('record.again');
        retry.hidden = false;
        retry.onclick = () => void toPreview();
        return;
      }
      if (attempt < 3) {
        text.textContent = t('upload.retrying', { seconds: attempt * 2 });
        await sleep(attempt * 2000);
        continue;
      }
      text.textContent = t('upload.offline');
      retry.textContent = t('upload.retry');
      retry.hidden = false;
      retry.focus();
      await new Promise<void>((r) => (retry.onclick = () => r()));
      retry.hidden = true;
      attempt = 0;
    }
  }
}
