/** The consent text the page shows; its version is recorded with the consent. */
export const CONSENT_TEXT_VERSION = 'consent-v1';
export const CONSENT_TEXT =
  'I agree to sign electronically. I agree that a video of my face and voice, a still image from it and ' +
  'technical information about my device are recorded, compared with the photo the sender supplied, ' +
  'and kept as evidence of this signature for the retention period.';

const SENTENCES: Record<string, (name: string, doc: string) => string> = {
  signature: (n, d) => `I, ${n}, sign “${d}” and intend this to be my legally binding signature.`,
  approval: (n, d) => `I, ${n}, approve “${d}”.`,
  review: (n, d) => `I, ${n}, confirm that I have reviewed “${d}”.`,
  consent: (n, d) => `I, ${n}, consent to the terms of “${d}”.`,
};

export function attestationText(type: string, signerName: string, documentName: string): string {
  return (SENTENCES[type] ?? SENTENCES.signature!)(signerName, documentName);
}
