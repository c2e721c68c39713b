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
