/**
 * What the sender requires a signer's capture to prove (issue 30), against what it proves:
 * recorded < live < live+webauthn. "recorded" is a single upload, or a live recording that failed
 * the real-time checks (domain/live.ts); "live" held them; "live+webauthn" is live with a WebAuthn
 * step verified for the same challenge. A capture below the requirement is refused before analysis.
 */
import type { Assurance } from './live.js';
import type { SigningContext } from './signer.js';

export const ASSURANCE_LEVELS = ['recorded', 'live', 'live+webauthn'] as const;
export type AssuranceLevel = (typeof ASSURANCE_LEVELS)[number];

const RANK: Record<AssuranceLevel, number> = { recorded: 0, live: 1, 'live+webauthn': 2 };

/**
 * The signer's requirement. Transactions created before it existed carry none and asked for nothing
 * (recorded); an unknown value is read as the strictest, never as the weakest.
 */
export function requiredOf(ctx: Pick<SigningContext, 'requiredAssurance'>): AssuranceLevel {
  const r = ctx.requiredAssurance ?? '';
  if (!r) return 'recorded';
  return (ASSURANCE_LEVELS as readonly string[]).includes(r) ? (r as AssuranceLevel) : 'live+webauthn';
}

/** What a capture proves: its timing's assurance, raised to live+webauthn by a WebAuthn step only when live. */
export function achievedOf(assessed: Assurance, webauthnVerified: boolean): AssuranceLevel {
  return assessed === 'live' && webauthnVerified ? 'live+webauthn' : assessed;
}

export const meets = (achieved: AssuranceLevel, required: AssuranceLevel) => RANK[achieved] >= RANK[required];

/** The single upload proves at most "recorded": it is offered only where the sender accepts that. */
export const uploadAllowed = (required: AssuranceLevel) => required === 'recorded';
