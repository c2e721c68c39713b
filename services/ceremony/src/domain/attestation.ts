import { createHash } from 'node:crypto';

/**
 * The consent text the page shows; its version (the template) and the retention days it states are
 * recorded with the consent, so the exact text accepted can be rebuilt.
 */
export const CONSENT_TEXT_VERSION = 'consent-v1';
export function consentText(retentionDays: number): string {
  const period =
    retentionDays === 0
      ? 'until the signing ends'
      : `for ${retentionDays} day${retentionDays === 1 ? '' : 's'} after the signing ends`;
  return (
    'I agree to sign electronically. I agree that a video of my face and voice, a still image from it and ' +
    'technical information about my device are recorded, compared with the photo the sender supplied, ' +
    `and kept as evidence of this signature ${period}; the video, the still image and the photo are then deleted. ` +
    'The certificate of the signature, which holds no image of my face, is kept.'
  );
}

const SENTENCES: Record<string, (name: string, doc: string) => string> = {
  signature: (n, d) => `I, ${n}, sign “${d}” and intend this to be my legally binding signature.`,
  approval: (n, d) => `I, ${n}, approve “${d}”.`,
  review: (n, d) => `I, ${n}, confirm that I have reviewed “${d}”.`,
  consent: (n, d) => `I, ${n}, consent to the terms of “${d}”.`,
};

export function attestationText(type: string, signerName: string, documentName: string): string {
  return (SENTENCES[type] ?? SENTENCES.signature!)(signerName, documentName);
}

/** SHA-256 (hex) of the attestation sentence's UTF-8 bytes: what the certificate seals of the words agreed to. */
export function attestationTextSha256(type: string, signerName: string, documentName: string): string {
  return createHash('sha256')
    .update(attestationText(type || 'signature', signerName, documentName), 'utf8')
    .digest('hex');
}
