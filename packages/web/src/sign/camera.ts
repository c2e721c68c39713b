/** The camera: asking for it (with a readable reason when refused), the preview, and starting the live recording. */
import { ApiError, type LiveStart } from './api.js';
import { confirmDecline } from './consent.js';
import { cameraEnumeration, captureSource, devtoolsHeuristic, frameTimingSampler, sensorSampler } from './forensic.js';
import { t } from './i18n/index.js';
import { $, client, errorText, fatal, gone, log, page, show } from './page.js';
import { record } from './record.js';
import { offerWebauthn } from './upload.js';
import { webauthnSupported } from './webauthn.js';
import { verifying } from './result.js';

export async function toCamera() {
  if (page.stream) return toPreview();
  show('camera');
  $('camera-allow').onclick = () => void openCamera();
  $('camera-decline').onclick = () => confirmDecline(() => void toCamera());
}

export async function openCamera() {
  const err = $('camera-error');
  err.hidden = true;
  if (!navigator.mediaDevices?.getUserMedia) {
    err.textContent = t('camera.unsupported');
    err.hidden = false;
    return;
  }
  const video = { facingMode: 'user', width: { ideal: 640 }, height: { ideal: 480 } };
  try {
    try {
      page.stream = await navigator.mediaDevices.getUserMedia({ video, audio: true });
    } catch (e) {
      // No microphone: record without sound rather than stop (the verdict notes the missing audio).
      if ((e as DOMException).name !== 'NotFoundError') throw e;
      page.stream = await navigator.mediaDevices.getUserMedia({ video, audio: false });
    }
    log.add('permission', { camera: 'granted', audio: page.stream.getAudioTracks().length > 0 });
  } catch (e) {
    const name = (e as DOMException).name;
    log.add('permission', { camera: 'refused', error: name });
    err.textContent =
      name === 'NotAllowedError'
        ? t('camera.refused')
        : name === 'NotFoundError' || name === 'OverconstrainedError'
          ? t('camera.notFound')
          : name === 'NotReadableError'
            ? t('camera.busy')
            : t('camera.failed');
    err.hidden = false;
    err.focus();
    return;
  }
  log.add('camera_enumeration', await cameraEnumeration());
  const source = await captureSource(page.stream);
  if (source) log.add('capture_source', source);
  log.add('devtools_heuristic', devtoolsHeuristic());
  await toPreview();
}

export async function toPreview() {
  const v = $<HTMLVideoElement>('preview');
  v.srcObject = page.stream!;
  await v.play().catch(() => undefined);
  const sample = sensorSampler(v);
  const timer = window.setInterval(() => {
    const s = sample();
    if (s) log.add('sensor_variance', s);
  }, 1000);
  $('attempt-info').textContent = page.summary ? t('preview.attempts', { count: page.summary.attempts_left }) : '';
  show('preview');
  $('start').onclick = async () => {
    window.clearInterval(timer);
    if (!window.MediaRecorder) return fatal(t('preview.noRecorder'));
    $<HTMLButtonElement>('start').disabled = true;
    // The device confirmation first: once the live stream starts, its challenge's clock runs, so a
    // signer who hesitates over WebAuthn must not be recording meanwhile (it binds to the challenge
    // the stream will use, drawn now if there is none).
    if (page.summary?.webauthn_offered && !page.summary.webauthn_done && webauthnSupported() && !(await offerWebauthn())) {
      $<HTMLButtonElement>('start').disabled = false;
      return;
    }
    let live: LiveStart;
    try {
      live = await client.live();
    } catch (err) {
      $<HTMLButtonElement>('start').disabled = false;
      if (gone(err)) return;
      if (err instanceof ApiError && err.status === 409) return void verifying();
      $('status').textContent = errorText(err);
      return;
    }
    $<HTMLButtonElement>('start').disabled = false;
    // Frame timing of the camera while recording (an injection signal, informational).
    const timing = frameTimingSampler($<HTMLVideoElement>('live'), () => document.body.dataset.current === 'record');
    await record(live);
    log.add('frame_timing', timing());
  };
}
