import { z } from 'zod';

export const MAX_FORENSIC_BATCH_BYTES = 64 * 1024;
export const MAX_FORENSIC_BATCHES = 200;

export const FORENSIC_TYPES = [
  'camera_enumeration',
  'sensor_variance',
  'visibility_change',
  'devtools_heuristic',
  'timing',
  'permission',
  'error',
  'capture_source',
  'frame_timing',
] as const;

const scalar = z.union([z.string().max(512), z.number(), z.boolean(), z.null()]);
const value = z.union([scalar, z.array(scalar).max(64), z.record(z.string().max(64), scalar)]);

/** One client event: a known type, the client's clock (ms since epoch or since page load) and flat data. */
export const forensicEventSchema = z.strictObject({
  type: z.enum(FORENSIC_TYPES),
  t: z.number().finite().nonnegative(),
  data: z.record(z.string().max(64), value).default({}),
});

export const forensicBatchSchema = z.strictObject({
  events: z.array(forensicEventSchema).min(1).max(500),
});
export type ForensicBatchInput = z.infer<typeof forensicBatchSchema>;
export type ForensicEvent = ForensicBatchInput['events'][number];

/*
 * Injection signals (issue 30): what the page says about the camera that fed the recording. They are
 * informational — the page is client-controlled, so a virtual camera can report anything — and are
 * never a verdict input; they are kept with the forensic log so a dispute can see a virtual camera's
 * own name or its too-regular frames. Each is validated field by field and bounded.
 */
const dimension = z.number().int().min(0).max(16_384);
const ms = z.number().finite().min(0).max(600_000);
const count = z.number().int().min(0).max(1_000_000);

/** The video track: its label, `MediaStreamTrack.getSettings()` (the device id only as a SHA-256 hex). */
export const captureSourceSchema = z.strictObject({
  label: z.string().max(256),
  width: dimension.optional(),
  height: dimension.optional(),
  frame_rate: z.number().finite().min(0).max(1000).optional(),
  device_id_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 hex digest (the device id is never sent)')
    .optional(),
  facing_mode: z.enum(['user', 'environment', 'left', 'right', '']).optional(),
  resize_mode: z.enum(['none', 'crop-and-scale', '']).optional(),
});

/** Frame timing while recording (requestVideoFrameCallback): intervals between presented frames. */
export const frameTimingSchema = z
  .strictObject({
    source: z.enum(['video_frame_callback', 'unavailable']),
    frames: count,
    dropped: count,
    mean_interval_ms: ms,
    jitter_ms: ms,
    max_interval_ms: ms,
    window_ms: ms,
  })
  .refine((d) => d.mean_interval_ms <= d.max_interval_ms && d.dropped <= d.frames * 100, {
    message: 'inconsistent frame timing (mean above max, or more frames dropped than plausible)',
  });

/** Virtual-camera software usually names itself: the label's hint, computed here (never trusted from the page). */
export const VIRTUAL_CAMERA_LABEL = /virtual|obs|manycam|snap camera|xsplit|droidcam|e2esoft|splitcam|fake|dummy/i;

const INJECTION_SIGNALS = {
  capture_source: captureSourceSchema,
  frame_timing: frameTimingSchema,
} as const;

/**
 * Checks the injection signals of a batch (other types keep the generic check) and returns the
 * events as stored: a capture_source gains the server's `virtual_label` flag. The first bad one
 * refuses the batch with its path.
 */
export function checkInjectionSignals(
  events: ForensicEvent[],
): { ok: true; events: ForensicEvent[] } | { ok: false; path: string; message: string } {
  const out: ForensicEvent[] = [];
  for (const [i, e] of events.entries()) {
    const schema = INJECTION_SIGNALS[e.type as keyof typeof INJECTION_SIGNALS];
    if (!schema) {
      out.push(e);
      continue;
    }
    const parsed = schema.safeParse(e.data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return { ok: false, path: ['events', i, 'data', ...issue.path].join('.'), message: issue.message };
    }
    const data: Record<string, unknown> = { ...parsed.data };
    if (e.type === 'capture_source') data.virtual_label = VIRTUAL_CAMERA_LABEL.test(String(data.label));
    out.push({ ...e, data: data as ForensicEvent['data'] });
  }
  return { ok: true, events: out };
}
