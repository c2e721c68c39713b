/**
 * The media commitments of a certificate and their opening. The certificate holds, per signer,
 * commitment = SHA-256("<salt>:<media SHA-256 hex>") of the capture video, the still frame and the
 * reference photo: public, yet saying nothing about the media. The owner's evidence bundle adds the
 * opening (the salt and the media hashes), so anyone holding it, and the media, can check them.
 */
import { createHash } from 'node:crypto';

export type MediaOpening = { video_sha256: string; frame_sha256: string; reference_sha256: string };
/** The opening of every signer's commitments, in the certificate's signer order. */
export type CommitmentOpenings = { salt: string; signers: MediaOpening[] };

const FIELDS = [
  ['video_sha256', 'video_commitment'],
  ['frame_sha256', 'frame_commitment'],
  ['reference_sha256', 'reference_commitment'],
] as const;

/** The commitment to a media hash under a salt ('' for no media). */
export function mediaCommitment(salt: string, sha256: string): string {
  if (!sha256) return '';
  return createHash('sha256').update(`${salt}:${sha256}`).digest('hex');
}

const hex64OrEmpty = (v: unknown) => typeof v === 'string' && /^([0-9a-f]{64})?$/.test(v);

/** Parses the openings of a bundle; throws naming the first bad field. */
export function parseOpenings(value: unknown): CommitmentOpenings {
  const o = value as Record<string, unknown> | null;
  if (typeof o !== 'object' || o === null) throw new Error('commitment_openings must be an object');
  if (typeof o.salt !== 'string' || o.salt.length === 0) throw new Error('commitment_openings salt must be a string');
  if (!Array.isArray(o.signers)) throw new Error('commitment_openings signers must be an array');
  o.signers.forEach((s: unknown, i) => {
    for (const [f] of FIELDS)
      if (!hex64OrEmpty((s as Record<string, unknown> | null)?.[f]))
        throw new Error(`commitment_openings signers[${i}].${f} must be 64 lower-case hex characters or empty`);
  });
  return o as unknown as CommitmentOpenings;
}

/** Every opened hash that does not give the certificate's commitment (empty: all open correctly). */
export function mismatchedCommitments(certificate: Record<string, unknown>, openings: CommitmentOpenings): string[] {
  const signers = Array.isArray(certificate.signers) ? (certificate.signers as Record<string, unknown>[]) : [];
  const bad: string[] = [];
  if (signers.length !== openings.signers.length)
    bad.push(`${openings.signers.length} opening(s) for ${signers.length} signer(s)`);
  openings.signers.forEach((o, i) => {
    for (const [hashField, commitmentField] of FIELDS) {
      if (mediaCommitment(openings.salt, o[hashField]) !== (signers[i]?.[commitmentField] ?? ''))
        bad.push(`signers[${i}].${commitmentField}`);
    }
  });
  return bad;
}

/** The media hashes the openings name (to match media files given to the verifier against). */
export const openedHashes = (openings: CommitmentOpenings): Set<string> =>
  new Set(openings.signers.flatMap((o) => FIELDS.map(([f]) => o[f]).filter(Boolean)));
