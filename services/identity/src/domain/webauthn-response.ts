import { createHash } from 'node:crypto';

/** The id a pending challenge is kept under: the SHA-256 of the base64url challenge the browser signs. */
export const challengeKey = (challenge: string) => createHash('sha256').update(challenge).digest('hex');

/**
 * Parses a browser's WebAuthn answer far enough to find its pending challenge (from its own
 * clientDataJSON); the library checks everything else. null when it is not shaped like one.
 */
export function parseWebauthnResponse(json: string): { response: Record<string, unknown>; id: string; challenge: string } | null {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object') return null;
  const r = v as { id?: unknown; response?: { clientDataJSON?: unknown } };
  if (typeof r.id !== 'string' || !r.id || typeof r.response?.clientDataJSON !== 'string') return null;
  try {
    const client: unknown = JSON.parse(Buffer.from(r.response.clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (client as { challenge?: unknown } | null)?.challenge;
    if (typeof challenge !== 'string' || !challenge) return null;
    return { response: v as Record<string, unknown>, id: r.id, challenge };
  } catch {
    return null;
  }
}
