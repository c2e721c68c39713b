import { z } from 'zod';
import { jsonText, text } from '../../text.js';

// Requests and answers of /api/sign/{token}/*: the routes validate with them and the OpenAPI
// document is generated from them.

/** URL-safe signing tokens (≥128 bits); anything else cannot be a link we sent. */
export const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;
export const tokenParams = z.object({
  token: z.string().regex(TOKEN).meta({ description: 'The signing token of the link /sign/{token}' }),
});
export const liveParams = tokenParams.extend({ nonce: z.string().meta({ description: 'The nonce of the live challenge' }) });
export const chunkParams = liveParams.extend({
  seq: z
    .string()
    .regex(/^\d{1,4}$/, 'seq must be the chunk number (0, 1, 2, ...)')
    .meta({ description: 'Chunk number: 0, 1, 2, ...' }),
});
const SHOWN = /^\d{1,4}:\d{1,7}(,\d{1,4}:\d{1,7})*$/;
const SHOWN_ERROR = 'shown must be segment:ms pairs separated by commas, e.g. 3:3120,4:4105';
export const chunkQuery = z.object({
  shown: z
    .string({ error: SHOWN_ERROR })
    .refine((v) => v === '' || (v.length <= 2000 && SHOWN.test(v)), SHOWN_ERROR)
    .optional()
    .meta({ description: 'Segments shown since the last chunk, as segment:ms pairs (recording time), e.g. 3:3120,4:4105' }),
});

export const consentBody = z.object({ consent_text_version: text({ min: 1, max: 64 }) });
export const verifyBody = z.object({
  response: z.record(z.string(), z.unknown()).meta({ description: 'The WebAuthn registration or assertion response' }),
});
export const forensicBody = z.object({
  events: z
    .array(
      z.object({
        type: text({ min: 1, max: 64 }),
        t: z.number().finite().nonnegative(),
        data: z.record(text({ max: 256 }), jsonText).optional(),
      }),
    )
    .min(1)
    .max(500),
});

export const captureForm = z.object({
  nonce: z.string().meta({ description: 'The challenge nonce; must come before the files' }),
  video: z.string().meta({ format: 'binary', description: 'WebM or MP4, at most 50 MB and 30 s' }),
  frame: z.string().meta({ format: 'binary', description: 'The final frame, JPEG or PNG, at most 10 MB' }),
});
export const binary = (description: string) => z.string().meta({ format: 'binary', description });

export const summarySchema = z
  .object({
    signer_name: z.string(),
    issuer_name: z.string(),
    document_name: z.string(),
    document_sha256_prefix: z.string(),
    attestation_type: z.string(),
    attestation_text: z.string(),
    step: z.string().meta({ description: 'The step the page shows next' }),
    attempts_left: z.int(),
    attempt: z.int(),
    webauthn_offered: z.boolean(),
    webauthn_done: z.boolean(),
    webauthn_required: z
      .boolean()
      .meta({ description: 'The sender asked for the device confirmation: a capture without it is refused (409)' }),
    required_assurance: z.string().meta({
      description:
        'The lowest assurance the sender accepts: recorded, live or live+webauthn. Below it a capture is refused (409) before analysis and its challenge is used up; the single upload (GET …/challenge) is offered only with recorded',
    }),
    verification_mode: z.string(),
    outcome: z.string().nullable().meta({ description: 'verified or failed once decided, else null' }),
    consent_text_version: z.string(),
    consent_text: z.string(),
    draws_left: z.int(),
    redo: z.array(z.string()),
  })
  .meta({ id: 'SigningSummary' });

export const challengeSchema = z
  .object({
    words: z.array(z.string()),
    actions: z.array(z.string()),
    nonce: z.string(),
    expires_at: z.string(),
    attempt: z.int(),
    action_seconds: z.int(),
    read_seconds: z.int(),
    timeline: z
      .object({
        segment_ms: z.int(),
        words_start_ms: z.int(),
        words_end_ms: z.int(),
        actions: z.array(z.object({ action: z.string(), start_ms: z.int(), end_ms: z.int() })),
        colours: z.array(z.string()),
        total_ms: z.int(),
        /** the flash segment: from its start, colours[i] for step_ms each (absent on older challenges) */
        flash: z.object({ segment: z.int(), step_ms: z.int(), colours: z.array(z.string()) }).nullable(),
      })
      .nullable(),
    draws_left: z.int(),
    assurance: z.string(),
  })
  .meta({ id: 'SigningChallenge' });

export const receiptSchema = z
  .object({
    capture_id: z.string(),
    attempt: z.int(),
    status: z.string(),
    video_sha256: z.string(),
    frame_sha256: z.string(),
    duration_seconds: z.number(),
    assurance: z.string(),
  })
  .meta({ id: 'CaptureReceipt' });

const revealSchema = z
  .object({
    segment: z.int(),
    colour: z.string(),
    prompt: z.string(),
    words: z.array(z.string()),
    action: z.string().nullable(),
    action_number: z.int(),
    action_count: z.int(),
    /** on the flash segment: the colours to show from its start, flash_ms each (flashes[0] is colour); else empty */
    flashes: z.array(z.string()),
    flash_ms: z.int(),
  })
  .meta({ id: 'LiveReveal' });

export const liveStartSchema = z
  .object({
    nonce: z.string(),
    expires_at: z.string(),
    attempt: z.int(),
    segment_ms: z.int(),
    segments: z.int(),
    draws_left: z.int(),
    reveal: revealSchema.nullable(),
  })
  .meta({ id: 'LiveStart' });

export const liveAckSchema = z
  .object({ seq: z.int(), done: z.boolean(), reveal: revealSchema.nullable() })
  .meta({ id: 'LiveAck' });

export const webauthnOptionsSchema = z.object({
  kind: z.string().meta({ description: 'registration or authentication' }),
  options: z.record(z.string(), z.unknown()).meta({ description: 'The options for navigator.credentials' }),
});
export const webauthnResultSchema = z.object({ verified: z.boolean(), kind: z.string(), verification_mode: z.string() });
export const forensicReceiptSchema = z.object({ batch: z.int(), batches_left: z.int(), received_at: z.string() });
