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
