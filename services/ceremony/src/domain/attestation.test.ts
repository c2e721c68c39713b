import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { attestationText, attestationTextSha256 } from './attestation.js';

describe('the attestation text hash sealed in the certificate', () => {
  it('is the SHA-256 of the exact sentence the page shows (UTF-8), per type, signer and document', () => {
    const text = attestationText('approval', '王小明', 'Umowa – 2026.pdf');
    expect(attestationTextSha256('approval', '王小明', 'Umowa – 2026.pdf')).toBe(
      createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'),
    );
    expect(attestationTextSha256('', 'A', 'd')).toBe(attestationTextSha256('signature', 'A', 'd'));
    expect(attestationTextSha256('signature', 'A', 'd')).not.toBe(attestationTextSha256('signature', 'B', 'd'));
  });
});
