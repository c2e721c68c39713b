import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certificateLeaf, leafHash, mismatchedCommitments } from '@signet/verify';
import { certificateFromEvent, openingsFromEvent } from '../events/verified.consumer.js';
import { exampleVerifiedEvent } from '../../test/fixtures/verified-event.js';

const doc = readFileSync(join(import.meta.dirname, '../../../../docs/certificate-format.md'), 'utf8');
const block = (lang: string, n = 0) => [...doc.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```', 'g'))][n]![1]!;

describe('docs/certificate-format.md: its worked example is what the ledger builds', () => {
  const ev = exampleVerifiedEvent();
  const cert = certificateFromEvent(ev);
  const leaf = certificateLeaf(cert);

  it('shows the certificate, its canonical JSON, the SHA-256 and the leaf hash the code gives', () => {
    expect(JSON.parse(block('json', 0))).toEqual(cert);
    expect(block('text')).toBe(leaf.toString('utf8'));
    expect(doc).toContain(`${leaf.length} bytes of UTF-8`);
    expect(doc).toContain(`SHA-256 of the canonical JSON: \`${createHash('sha256').update(leaf).digest('hex')}\``);
    expect(doc).toContain(`Leaf hash, SHA-256(0x00 ‖ canonical JSON): \`${leafHash(leaf).toString('hex')}\``);
  });

  it('shows the owner’s openings, and they open the example’s commitments', () => {
    const openings = openingsFromEvent(ev)!;
    expect(JSON.parse(block('json', 1))).toEqual(openings);
    expect(mismatchedCommitments(cert, openings)).toEqual([]);
  });

  it('documents every field a version 2 certificate has', () => {
    for (const key of Object.keys(cert)) expect(doc).toMatch(new RegExp(`\\| \`${key}(\\[\\])?\``));
    for (const key of Object.keys(cert.signers[0]!))
      expect(doc).toMatch(new RegExp(`\\| \`signers\\[\\]\\.${key}\`|\\.${key}\``));
  });
});
