import '../shared/a11y.css';
import './sign.css';
import { api, ApiError, type Challenge, type Summary } from './api.js';
import { cameraEnumeration, devtoolsHeuristic, forensicLog, sensorSampler } from './forensic.js';
import { runWebauthn, webauthnSupported } from './webauthn.js';

type Screen =
  'loading' | 'error' | 'consent' | 'camera' | 'preview' | 'webauthn' | 'record' | 'upload' | 'verifying' | 'retry' | 'done';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const token = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');
const client = api(token);
const log = forensicLog((events) => client.forensic(events));
const started = performance.now();

const ACTION_TEXT: Record<string, string> = {
  turn_left: 'Turn your head to your left, then back',
  turn_right: 'Turn your head to your right, then back',
  blink: 'Blink slowly twice',
  smile: 'Smile',
  look_up: 'Look up, then back',
};
const READ_SECONDS = 6;

let summary: Summary | undefined;
let stream: MediaStream | undefined;
let challenge: Challenge | undefined;

function show(screen: Screen, announce?: string) {
  for (const s of document.querySelectorAll<HTMLElement>('section[data-screen]')) s.hidden = s.dataset.screen !== screen;
  document.body.dataset.current = screen;
  const h = document.querySelector<HTMLElement>(`[data-screen="${screen}"] h1`);
  h?.focus();
  $('status').textContent = announce ?? h?.textContent ?? '';
  log.add('timing', { screen, ms: Math.round(performance.now() - started) });
}

function fatal(message: string, retry?: () => void) {
  $('error-text').textContent = message;
  const b = $<HTMLButtonElement>('error-retry');
  b.hidden = !retry;
  b.onclick = retry ? () => retry() : null;
  show('error');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function gone(err: unknown): boolean {
  if (err instanceof ApiError && err.status === 404) {
    stopCamera();
    fatal(err.detail || 'This signing link is not valid any more.');
    return true;
  }
  return false;
}

async function start() {
  try {
    summary = await client.summary();
  } catch (err) {
    if (gone(err)) return;
    fatal((err as Error).message, () => void start());
    return;
  }
  $('doc-chip').textContent = summary.document_name;
  route(summary);
}

function route(s: Summary) {
  if (s.step === 'consent') return showConsent(s);
  if (s.step === 'verifying') return void verifying();
  if (s.step === 'passed') return finish('Your identity has been verified. You can close this page.');
  if (s.step === 'failed')
    return finish('The verification did not succeed and no attempts are left. The sender has been informed.');
  return void toCamera();
}

function showConsent(s: Summary) {
  $('c-doc').textContent = s.document_name;
  $('c-hash').textContent = s.document_sha256_prefix;
  $<HTMLAnchorElement>('c-doc-link').href = `/api/sign/${encodeURIComponent(token)}/document`;
  $('c-doc-link-wrap').hidden = false;
  $('c-issuer').textContent = s.issuer_name;
  $('c-signer').textContent = s.signer_name;
  $('c-attest').textContent = s.attestation_text;
  $('c-text').textContent = s.consent_text;
  const agree = $<HTMLInputElement>('c-agree');
  const submit = $<HTMLButtonElement>('c-submit');
  agree.onchange = () => (submit.disabled = !agree.checked);
  submit.onclick = async () => {
    submit.disabled = true;
    try {
      summary = await client.consent(s.consent_text_version);
    } catch (err) {
      if (gone(err)) return;
      // Consent already recorded (another tab): carry on.
      if (!(err instanceof ApiError && err.status === 409)) {
        submit.disabled = false;
        $('status').textContent = (err as Error).message;
        return;
      }
    }
    await toCamera();
  };
  show('consent');
}

async function toCamera() {
  if (stream) return toPreview();
  show('camera');
  $('camera-allow').onclick = () => void openCamera();
}

async function openCamera() {
  const err = $('camera-error');
  err.hidden = true;
  if (!navigator.mediaDevices?.getUserMedia) {
    err.textContent =
      'This browser cannot use a camera here. Open the link in a current browser (Chrome, Safari, Firefox, Edge).';
    err.hidden = false;
    return;
  }
  const video = { facingMode: 'user', width: { ideal: 640 }, height: { ideal: 480 } };
  try {
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video, audio: true });
    } catch (e) {
      // No microphone: record without sound rather than stop (the verdict notes the missing audio).
      if ((e as DOMException).name !== 'NotFoundError') throw e;
      stream = await navigator.mediaDevices.getUserMedia({ video, audio: false });
    }
    log.add('permission', { camera: 'granted', audio: stream.getAudioTracks().length > 0 });
  } catch (e) {
    const name = (e as DOMException).name;
    log.add('permission', { camera: 'refused', error: name });
    err.textContent =
      name === 'NotAllowedError'
        ? 'Camera access was refused. Allow the camera for this site in your browser settings (the camera icon in the address bar), then press the button again.'
        : name === 'NotFoundError' || name === 'OverconstrainedError'
          ? 'No camera was found. Connect a camera or open this link on a phone.'
          : name === 'NotReadableError'
            ? 'The camera is in use by another application. Close it and try again.'
            : 'The camera could not be started. Try again or use another browser.';
    err.hidden = false;
    err.focus();
    return;
  }
  log.add('camera_enumeration', await cameraEnumeration());
  log.add('devtools_heuristic', devtoolsHeuristic());
  await toPreview();
}

function stopCamera() {
  for (const t of stream?.getTracks() ?? []) t.stop();
  stream = undefined;
}

async function toPreview() {
  const v = $<HTMLVideoElement>('preview');
  v.srcObject = stream!;
  await v.play().catch(() => undefined);
  const sample = sensorSampler(v);
  const timer = window.setInterval(() => {
    const s = sample();
    if (s) log.add('sensor_variance', s);
  }, 1000);
  $('attempt-info').textContent = summary ? `Attempts left: ${summary.attempts_left}.` : '';
  show('preview');
  $('start').onclick = async () => {
    window.clearInterval(timer);
    $<HTMLButtonElement>('start').disabled = true;
    try {
      challenge = await client.challenge();
    } catch (err) {
      $<HTMLButtonElement>('start').disabled = false;
      if (gone(err)) return;
      if (err instanceof ApiError && err.status === 409) return void verifying();
      $('status').textContent = (err as Error).message;
      return;
    }
    $<HTMLButtonElement>('start').disabled = false;
    if (summary?.webauthn_offered && webauthnSupported()) return offerWebauthn();
    await record();
  };
}

function offerWebauthn() {
  const err = $('webauthn-error');
  err.hidden = true;
  show('webauthn');
  $('webauthn-skip').onclick = () => void record();
  $('webauthn-use').onclick = async () => {
    try {
      const o = await client.webauthnOptions();
      const response = await runWebauthn(o.kind, o.options);
      await client.webauthnVerify(response);
      log.add('timing', { webauthn: 'done' });
      await record();
    } catch (e) {
      if (gone(e)) return;
      err.textContent = `Device confirmation did not work (${(e as Error).message}). You can try again or skip it.`;
      err.hidden = false;
    }
  };
}

function pickMime(): string {
  for (const m of ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9,opus', 'video/webm', 'video/mp4'])
    if (window.MediaRecorder?.isTypeSupported?.(m)) return m;
  return '';
}

async function countdown(title: string, words: string, seconds: number) {
  $('prompt-title').textContent = title;
  $('prompt-words').textContent = words;
  $('status').textContent = words ? `${title}: ${words}` : title;
  for (let s = seconds; s > 0; s--) {
    $('prompt-count').textContent = String(s);
    await sleep(1000);
  }
}

async function grabFrame(v: HTMLVideoElement): Promise<Blob> {
  const c = document.createElement('canvas');
  c.width = v.videoWidth || 640;
  c.height = v.videoHeight || 480;
  c.getContext('2d')!.drawImage(v, 0, 0, c.width, c.height);
  return new Promise((resolve, reject) => c.toBlob((b) => (b ? resolve(b) : reject(new Error('frame'))), 'image/jpeg', 0.92));
}

async function record() {
  const ch = challenge!;
  if (!window.MediaRecorder) return fatal('This browser cannot record video. Open the link in a current browser.');
  const v = $<HTMLVideoElement>('live');
  v.srcObject = stream!;
  await v.play().catch(() => undefined);
  show('record', 'Recording started');
  const mime = pickMime();
  const rec = new MediaRecorder(stream!, mime ? { mimeType: mime, videoBitsPerSecond: 1_500_000 } : undefined);
  const chunks: Blob[] = [];
  rec.ondataavailable = (e) => e.data.size && chunks.push(e.data);
  const stopped = new Promise<void>((r) => (rec.onstop = () => r()));
  rec.start(1000);
  const t0 = performance.now();
  await countdown('Read these words aloud', ch.words.join(' · '), ch.read_seconds || READ_SECONDS);
  const windows: Record<string, unknown>[] = [];
  for (const [i, a] of ch.actions.entries()) {
    windows.push({ action: a, start_ms: Math.round(performance.now() - t0) });
    await countdown(`${i + 1} of ${ch.actions.length}: ${ACTION_TEXT[a] ?? a}`, '', ch.action_seconds);
  }
  await countdown('Look at the camera', '', 1);
  const frame = await grabFrame(v);
  rec.stop();
  await stopped;
  log.add('timing', {
    recorded_ms: Math.round(performance.now() - t0),
    windows: windows.map((w) => `${w.action}@${w.start_ms}`),
  });
  const video = new Blob(chunks, { type: (rec.mimeType || mime || 'video/webm').split(';')[0] });
  await upload(video, frame);
}

async function upload(video: Blob, frame: Blob) {
  const bar = $<HTMLProgressElement>('upload-progress');
  const text = $('upload-text');
  const retry = $<HTMLButtonElement>('upload-retry');
  retry.hidden = true;
  show('upload');
  for (let attempt = 1; ; attempt++) {
    try {
      text.textContent = 'Uploading…';
      await client.capture(challenge!.nonce, video, frame, (f) => {
        bar.value = Math.round(f * 100);
        text.textContent = `Uploading… ${bar.value}%`;
      });
      bar.value = 100;
      log.add('timing', { upload: 'done', tries: attempt });
      void log.flush();
      return void verifying();
    } catch (err) {
      if (gone(err)) return;
      const e = err as ApiError;
      if (e.status === 409) {
        // The challenge expired or was replaced: a fresh one is needed, so record again.
        text.textContent = 'The challenge expired before the upload finished. Please record again.';
        return void toPreview();
      }
      if (e.status && e.status < 500 && e.status !== 429) {
        text.textContent = `The video was not accepted: ${e.detail}`;
        retry.hidden = true;
        const again = $<HTMLButtonElement>('upload-retry');
        again.textContent = 'Record again';
        again.hidden = false;
        again.onclick = () => void toPreview();
        return;
      }
      if (attempt < 3) {
        text.textContent = `${e.message} Retrying in ${attempt * 2} s…`;
        await sleep(attempt * 2000);
        continue;
      }
      text.textContent = `${e.message} Press retry when you are back online.`;
      retry.textContent = 'Retry upload';
      retry.hidden = false;
      retry.focus();
      await new Promise<void>((r) => (retry.onclick = () => r()));
      retry.hidden = true;
      attempt = 0;
    }
  }
}

async function verifying() {
  show('verifying');
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
    summary = s;
    if (s.step === 'passed') return finish('Your identity has been verified. You can close this page.');
    if (s.step === 'failed')
      return finish('The verification did not succeed and no attempts are left. The sender has been informed.');
    if (s.step === 'challenge' && s.outcome === 'fail') {
      $('retry-left').textContent = `Attempts left: ${s.attempts_left}.`;
      $('retry-go').onclick = () => void toCamera();
      return show('retry');
    }
    await sleep(2000);
  }
}

function finish(message: string) {
  stopCamera();
  log.stop();
  $('done-text').textContent = message;
  show('done');
}

document.addEventListener('visibilitychange', () => log.add('visibility_change', { state: document.visibilityState }));
window.addEventListener('resize', () => log.add('devtools_heuristic', devtoolsHeuristic()));
void start();
