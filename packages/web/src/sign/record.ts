/** The live recording: one chunk per segment, each answer revealing the next prompt and screen colour. */
import type { ApiError, LiveStart, Reveal } from './api.js';
import { toPreview } from './camera.js';
import { t, type MessageKey } from './i18n/index.js';
import { $, client, gone, log, page, show } from './page.js';
import { finishCapture } from './upload.js';

const ACTIONS = new Set(['turn_left', 'turn_right', 'blink', 'smile', 'look_up']);
const actionText = (a = '') => (ACTIONS.has(a) ? t(`action.${a}` as MessageKey) : a);

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

let flashTimers: number[] = [];

function setLight(colour: string) {
  document.body.style.setProperty('--light', colour);
  document.body.dataset.light = colour;
}

function stopFlashes() {
  for (const t of flashTimers) window.clearTimeout(t);
  flashTimers = [];
}

/**
 * The flash segment's colours, each `flash_ms` after the one before, timed from the moment the
 * segment is shown (the service expects flash i at the segment's shown time + i × flash_ms; a
 * timer that fires late does not push the later ones back). A new segment cancels what is left.
 */
function showFlashes(r: Reveal) {
  stopFlashes();
  if (!r.flashes?.length || !(r.flash_ms > 0)) return;
  const from = performance.now();
  r.flashes.slice(1).forEach((c, i) => {
    const at = from + (i + 1) * r.flash_ms;
    flashTimers.push(window.setTimeout(() => setLight(c), Math.max(0, at - performance.now())));
  });
}

/** Shows one segment: the screen colour (its light on the face is part of the evidence) and the prompt. */
function showReveal(r: Reveal) {
  setLight(r.colour);
  showFlashes(r);
  const title =
    r.prompt === 'words'
      ? t('record.words')
      : r.prompt === 'action'
        ? t('record.action', {
            number: r.action_number ?? 0,
            count: r.action_count ?? 0,
            action: actionText(r.action ?? undefined),
          })
        : r.prompt === 'hold'
          ? t('record.hold')
          : t('record.still');
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
export async function record(live: LiveStart) {
  const v = $<HTMLVideoElement>('live');
  v.srcObject = page.stream!;
  await v.play().catch(() => undefined);
  show('record', t('record.started'));
  document.body.classList.add('lit');
  const mime = pickMime();
  const rec = new MediaRecorder(page.stream!, mime ? { mimeType: mime, videoBitsPerSecond: 1_500_000 } : undefined);
  const stopped = new Promise<void>((r) => (rec.onstop = () => r()));
  let failure: unknown;
  let frame: Promise<Blob> | undefined;
  let seq = 0;
  let queue = Promise.resolve();
  let pending: [number, number][] = [];
  let t0 = 0;
  // A shown time goes with the first chunk recorded after it: the service checks that the media it
  // has received by then already reaches the shown time (services/ceremony/src/domain/live.ts).
  const send = (data: Blob, recordedTo: number) => {
    const mySeq = seq++;
    queue = queue.then(async () => {
      if (failure) return;
      const shown = pending.filter(([, ms]) => ms <= recordedTo);
      pending = pending.filter(([, ms]) => ms > recordedTo);
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
  rec.ondataavailable = (e) => e.data.size && send(e.data, performance.now() - t0);
  rec.start(live.segment_ms);
  t0 = performance.now();
  if (live.reveal) showReveal(live.reveal);
  // A stalled network must not keep the camera recording: the service allows the segments plus a margin.
  const guard = window.setTimeout(() => rec.state === 'recording' && rec.stop(), live.segments * live.segment_ms + 15_000);
  await stopped;
  window.clearTimeout(guard);
  await queue;
  stopFlashes();
  document.body.classList.remove('lit');
  log.add('timing', { recorded_ms: Math.round(performance.now() - t0), chunks: seq });
  if (failure || !frame) {
    if (gone(failure)) return;
    const e = failure as ApiError | undefined;
    $('upload-text').textContent = e?.status === 409 ? t('record.expired') : t('record.interrupted');
    show('upload');
    const again = $<HTMLButtonElement>('upload-retry');
    again.textContent = t('record.again');
    again.hidden = false;
    again.onclick = () => void toPreview();
    return;
  }
  await finishCapture(live.nonce, await frame);
}
