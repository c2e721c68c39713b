import '../shared/a11y.css';
import './sign.css';
import { api, ApiError, type LiveStart, type Reveal, type Summary } from './api.js';
import { cameraEnumeration, devtoolsHeuristic, forensicLog, sensorSampler } from './forensic.js';
import { runWebauthn, webauthnSupported } from './webauthn.js';

type Screen =
  | 'loading'
  | 'error'
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

let summary: Summary | undefined;
let stream: MediaStream | undefined;

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
  $('c-decline').onclick = () => confirmDecline(() => showConsent(s));
  show('consent');
}

/** The confirmation step of a decline: a reason for the sender, then the decline, which ends the request. */
function confirmDecline(back: () => void) {
  const confirm = $<HTMLButtonElement>('d-confirm');
  const reason = $<HTMLTextAreaElement>('d-reason');
  $('d-back').onclick = () => back();
  confirm.disabled = false;
  confirm.onclick = async () => {
    confirm.disabled = true;
    try {
      await client.decline(reason.value.trim());
    } catch (err) {
      if (gone(err)) return;
      confirm.disabled = false;
      $('status').textContent = (err as Error).message;
      return;
    }
    finish('You declined to sign. The sender has been told, and this link no longer works.');
  };
  show('decline');
}

async function toCamera() {
  if (stream) return toPreview();
  show('camera');
  $('camera-allow').onclick = () => void openCamera();
  $('camera-decline').onclick = () => confirmDecline(() => void toCamera());
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
    if (!window.MediaRecorder) return fatal('This browser cannot record video. Open the link in a current browser.');
    $<HTMLButtonElement>('start').disabled = true;
    let live: LiveStart;
    try {
      live = await client.live();
    } catch (err) {
      $<HTMLButtonElement>('start').disabled = false;
      if (gone(err)) return;
      if (err instanceof ApiError && err.status === 409) return void verifying();
      $('status').textContent = (err as Error).message;
      return;
    }
    $<HTMLButtonElement>('start').disabled = false;
    await record(live);
  };
}

/** After the recording, before it is sent: the optional device confirmation (bound to the same nonce). */
function offerWebauthn(): Promise<void> {
  const err = $('webauthn-error');
  err.hidden = true;
  // Required by the sender (issue 18): no skip; the capture would be refused without it.
  const required = !!summary?.webauthn_required;
  $('webauthn-skip').hidden = required;
  show('webauthn');
  return new Promise((done) => {
    $('webauthn-skip').onclick = () => done();
    $('webauthn-use').onclick = async () => {
      try {
        const o = await client.webauthnOptions();
        const response = await runWebauthn(o.kind, o.options);
        await client.webauthnVerify(response);
        log.add('timing', { webauthn: 'done' });
        done();
      } catch (e) {
        if (gone(e)) return;
        err.textContent = `Device confirmation did not work (${(e as Error).message}). ${required ? 'The sender requires it: please try again.' : 'You can try again or skip it.'}`;
        err.hidden = false;
      }
    };
  });
}

function pickMime(): string {
  for (const m of ['video/webm;codecs=vp8,opus', 'video/webm;codecs=vp9,opus', 'video/webm', 'video/mp4'])
    if (window.MediaRecorder?.isTypeSupported?.(m)) return m;
  return '';
}

async function grabFrame(v: HTMLVideoElement): Promise<Blob> {
  const c = document.createElement('canvas');
  c.width = v.videoWidth || 640;
  c.height = v.videoHeight || 480;
  c.getContext('2d')!.drawImage(v, 0, 0, c.width, c.height);
  return new Promise((resolve, reject) => c.toBlob((b) => (b ? resolve(b) : reject(new Error('frame'))), 'image/jpeg', 0.92));
}

/** Shows one segment: the screen colour (its light on the face is part of the evidence) and the prompt. */
function showReveal(r: Reveal) {
  document.body.style.setProperty('--light', r.colour);
  document.body.dataset.light = r.colour;
  const title =
    r.prompt === 'words'
      ? 'Read these words aloud'
      : r.prompt === 'action'
        ? `${r.action_number} of ${r.action_count}: ${ACTION_TEXT[r.action ?? ''] ?? r.action}`
        : r.prompt === 'hold'
          ? 'Look at the camera'
          : 'Keep your head still, facing the camera';
  const words = r.prompt === 'words' ? r.words.join(' · ') : '';
  if ($('prompt-title').textContent !== title) {
    $('prompt-title').textContent = title;
    $('status').textContent = words ? `${title}: ${words}` : title;
  }
  $('prompt-words').textContent = words;
  $('prompt-count').textContent = '';
}

/**
 * The live recording: the recorder hands over one chunk per segment; each is sent at once, and
 * the answer reveals the next segment (prompt and colour), shown the moment it arrives. The page
 * reports when it showed each segment, so the service can check the answer came after the prompt.
 */
async function record(live: LiveStart) {
  const v = $<HTMLVideoElement>('live');
  v.srcObject = stream!;
  await v.play().catch(() => undefined);
  show('record', 'Recording started');
  document.body.classList.add('lit');
  const mime = pickMime();
  const rec = new MediaRecorder(stream!, mime ? { mimeType: mime, videoBitsPerSecond: 1_500_000 } : undefined);
  const stopped = new Promise<void>((r) => (rec.onstop = () => r()));
  let failure: unknown;
  let frame: Promise<Blob> | undefined;
  let seq = 0;
  let queue = Promise.resolve();
  let pending: [number, number][] = [];
  let t0 = 0;
  const send = (data: Blob) => {
    const mySeq = seq++;
    queue = queue.then(async () => {
      if (failure) return;
      const shown = pending;
      pending = [];
      try {
        const ack = await client.chunk(live.nonce, mySeq, data, shown);
        if (ack.reveal) {
          showReveal(ack.reveal);
          pending.push([ack.reveal.segment, performance.now() - t0]);
        }
        if (ack.done && rec.state === 'recording') {
          frame = grabFrame(v);
          rec.stop();
        }
      } catch (err) {
        failure = err;
        if (rec.state === 'recording') rec.stop();
      }
    });
  };
  rec.ondataavailable = (e) => e.data.size && send(e.data);
  rec.start(live.segment_ms);
  t0 = performance.now();
  if (live.reveal) showReveal(live.reveal);
  // A stalled network must not keep the camera recording: the service allows the segments plus a margin.
  const guard = window.setTimeout(() => rec.state === 'recording' && rec.stop(), live.segments * live.segment_ms + 15_000);
  await stopped;
  window.clearTimeout(guard);
  await queue;
  document.body.classList.remove('lit');
  log.add('timing', { recorded_ms: Math.round(performance.now() - t0), chunks: seq });
  if (failure || !frame) {
    if (gone(failure)) return;
    const e = failure as ApiError | undefined;
    $('upload-text').textContent =
      e?.status === 409
        ? 'The recording could not be used (the challenge expired or was replaced). Please record again.'
        : `The recording was interrupted${e ? `: ${e.message}` : ''}. Please record again.`;
    show('upload');
    const again = $<HTMLButtonElement>('upload-retry');
    again.textContent = 'Record again';
    again.hidden = false;
    again.onclick = () => void toPreview();
    return;
  }
  if (summary?.webauthn_offered && webauthnSupported()) await offerWebauthn();
  await finishCapture(live.nonce, await frame);
}

async function finishCapture(nonce: string, frame: Blob) {
  const text = $('upload-text');
  const retry = $<HTMLButtonElement>('upload-retry');
  retry.hidden = true;
  $<HTMLProgressElement>('upload-progress').removeAttribute('value');
  show('upload');
  for (let attempt = 1; ; attempt++) {
    try {
      text.textContent = 'Sending…';
      const r = await client.finish(nonce, frame);
      log.add('timing', { upload: 'done', tries: attempt, assurance: r.assurance });
      void log.flush();
      return void verifying();
    } catch (err) {
      if (gone(err)) return;
      const e = err as ApiError;
      if (e.status && e.status < 500 && e.status !== 429) {
        text.textContent = `The recording was not accepted: ${e.detail}`;
        retry.textContent = 'Record again';
        retry.hidden = false;
        retry.onclick = () => void toPreview();
        return;
      }
      if (attempt < 3) {
        text.textContent = `${e.message} Retrying in ${attempt * 2} s…`;
        await sleep(attempt * 2000);
        continue;
      }
      text.textContent = `${e.message} Press retry when you are back online.`;
      retry.textContent = 'Retry';
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

async function pollVerdict() {
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
      const list = $('retry-redo');
      list.replaceChildren(
        ...(s.redo.length ? s.redo : ['face']).map((r) => {
          const li = document.createElement('li');
          li.textContent = REDO_TEXT[r] ?? r;
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

function finish(message: string) {
  stopCamera();
  log.stop();
  $('done-text').textContent = message;
  show('done');
}

document.addEventListener('visibilitychange', () => log.add('visibility_change', { state: document.visibilityState }));
window.addEventListener('resize', () => log.add('devtools_heuristic', devtoolsHeuristic()));
void start();
