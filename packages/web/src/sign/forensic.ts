/**
 * Client-side forensic events, queued and sent in the background in batches (≤ 64 KB, the server
 * keeps at most 200 batches a session). Nothing here blocks the ceremony; failures are dropped.
 */
export type ForensicEvent = { type: string; t: number; data: Record<string, unknown> };

export function forensicLog(send: (events: ForensicEvent[]) => Promise<unknown>) {
  const queue: ForensicEvent[] = [];
  let sent = 0;
  const MAX_BATCHES = 190;
  const flush = async () => {
    if (!queue.length || sent >= MAX_BATCHES) return;
    const batch = queue.splice(0, 100);
    sent++;
    await send(batch).catch(() => undefined);
  };
  const timer = window.setInterval(() => void flush(), 5000);
  return {
    add(type: string, data: Record<string, unknown> = {}) {
      queue.push({ type, t: Math.round(performance.timeOrigin + performance.now()), data });
      if (queue.length >= 100) void flush();
    },
    flush,
    stop() {
      window.clearInterval(timer);
      void flush();
    },
  };
}

/** Device and environment signals gathered once the camera is allowed. */
export async function cameraEnumeration(): Promise<Record<string, unknown>> {
  const devices = await navigator.mediaDevices.enumerateDevices().catch(() => [] as MediaDeviceInfo[]);
  const video = devices.filter((d) => d.kind === 'videoinput');
  return {
    video_inputs: video.length,
    audio_inputs: devices.filter((d) => d.kind === 'audioinput').length,
    // Virtual-camera software usually names itself; only a flag and label length leave the device.
    virtual_camera_hint: video.some((d) => /virtual|obs|manycam|snap camera|fake/i.test(d.label)),
    label_lengths: video.map((d) => d.label.length),
  };
}

/** Devtools-open heuristic: a docked inspector shrinks the viewport against the window. */
export function devtoolsHeuristic(): Record<string, unknown> {
  const dw = window.outerWidth - window.innerWidth;
  const dh = window.outerHeight - window.innerHeight;
  return { width_gap: dw, height_gap: dh, suspected: dw > 160 || dh > 200 };
}

/** Inter-frame variance of a downscaled luminance image: a frozen or injected still scores ~0. */
export function sensorSampler(video: HTMLVideoElement) {
  const canvas = document.createElement('canvas');
  canvas.width = 32;
  canvas.height = 24;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  let prev: Float32Array | undefined;
  return (): Record<string, unknown> | undefined => {
    if (!ctx || video.readyState < 2) return undefined;
    ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
    const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    const lum = new Float32Array(canvas.width * canvas.height);
    let mean = 0;
    for (let i = 0; i < lum.length; i++) {
      lum[i] = 0.299 * px[i * 4]! + 0.587 * px[i * 4 + 1]! + 0.114 * px[i * 4 + 2]!;
      mean += lum[i]!;
    }
    mean /= lum.length;
    let diff = 0;
    if (prev) for (let i = 0; i < lum.length; i++) diff += (lum[i]! - prev[i]!) ** 2;
    const out = { mean_luma: Math.round(mean), frame_diff_variance: prev ? Math.round((diff / lum.length) * 100) / 100 : null };
    prev = lum;
    return out;
  };
}

/**
 * Injection signals (informational): the video track's label and settings, the device id only as a
 * SHA-256 digest (it is per-origin already; hashed so the raw id never leaves the device).
 */
export async function captureSource(stream: MediaStream): Promise<Record<string, unknown> | undefined> {
  const track = stream.getVideoTracks()[0];
  if (!track) return undefined;
  const s = track.getSettings() as MediaTrackSettings & { resizeMode?: string };
  const int = (v: number | undefined) => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : undefined);
  let deviceIdHash: string | undefined;
  if (s.deviceId && crypto.subtle) {
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(s.deviceId)).catch(() => undefined);
    if (digest) deviceIdHash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  }
  const oneOf = <T extends string>(v: string | undefined, allowed: readonly T[]) =>
    v !== undefined && (allowed as readonly string[]).includes(v) ? v : undefined;
  return {
    label: track.label.slice(0, 256),
    width: int(s.width),
    height: int(s.height),
    frame_rate: typeof s.frameRate === 'number' && Number.isFinite(s.frameRate) ? Math.round(s.frameRate * 100) / 100 : undefined,
    device_id_sha256: deviceIdHash,
    facing_mode: oneOf(s.facingMode, ['user', 'environment', 'left', 'right', ''] as const),
    resize_mode: oneOf(s.resizeMode, ['none', 'crop-and-scale', ''] as const),
  };
}

type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (cb: (now: number, meta: { presentedFrames: number }) => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

/**
 * Frame timing of a playing video while `active()` holds (requestVideoFrameCallback): the intervals
 * between presented frames, their mean and spread, the longest, and the frames skipped between two
 * callbacks. A camera has a little jitter; replayed or synthesised video is often too regular or too
 * uneven. Call the returned function to stop and get the summary.
 */
export function frameTimingSampler(video: HTMLVideoElement, active: () => boolean): () => Record<string, unknown> {
  const v = video as FrameCallbackVideo;
  if (typeof v.requestVideoFrameCallback !== 'function')
    return () => ({
      source: 'unavailable',
      frames: 0,
      dropped: 0,
      mean_interval_ms: 0,
      jitter_ms: 0,
      max_interval_ms: 0,
      window_ms: 0,
    });
  const intervals: number[] = [];
  let dropped = 0;
  let frames = 0;
  let first = 0;
  let last: { now: number; presented: number } | undefined;
  let handle = 0;
  let stopped = false;
  const onFrame = (now: number, meta: { presentedFrames: number }) => {
    if (stopped) return;
    if (active()) {
      frames++;
      if (last) {
        intervals.push(now - last.now);
        dropped += Math.max(0, meta.presentedFrames - last.presented - 1);
      } else first = now;
      last = { now, presented: meta.presentedFrames };
    } else last = undefined;
    handle = v.requestVideoFrameCallback!(onFrame);
  };
  handle = v.requestVideoFrameCallback(onFrame);
  return () => {
    stopped = true;
    v.cancelVideoFrameCallback?.(handle);
    const n = intervals.length;
    const mean = n ? intervals.reduce((a, b) => a + b, 0) / n : 0;
    const jitter = n ? Math.sqrt(intervals.reduce((a, b) => a + (b - mean) ** 2, 0) / n) : 0;
    const round = (x: number) => Math.min(600_000, Math.round(x * 100) / 100);
    return {
      source: 'video_frame_callback',
      frames,
      dropped: Math.min(dropped, frames * 100),
      mean_interval_ms: round(mean),
      jitter_ms: round(jitter),
      max_interval_ms: round(n ? Math.max(...intervals) : 0),
      window_ms: round(last ? last.now - first : 0),
    };
  };
}
