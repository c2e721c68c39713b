import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BUNDLE_FORMAT,
  BUNDLE_FORMAT_V1,
  certificateLeaf,
  checkpointText,
  formatSeal,
  formatVerifierKey,
  keyId,
  leafHash,
  parseServedKeys,
  parseVerifierKey,
  sealMessage,
  signatureLine,
  verifyBundle,
  type CertificateBundle,
  type LogKey,
} from './index.js';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../test/fixtures/${name}`, import.meta.url), 'utf8'));
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const failing = (r: { checks: { name: string; ok: boolean }[] }) => r.checks.filter((c) => !c.ok).map((c) => c.name);

describe('bundle versions: v1 bundles keep verifying, v2 adds the richer certificate and the commitment openings', () => {
  const keys = parseServedKeys(fixture('public-key.json'));

  it('verifies the v1 fixture (certificate version 1) with the served key file', () => {
    const b = fixture('bundle-v1.json') as CertificateBundle;
    expect(b.format).toBe(BUNDLE_FORMAT_V1);
    const r = verifyBundle(b, { key: keys, documentSha256: sha('document 1') });
    expect(failing(r)).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.checks.map((c) => c.name)).toEqual(['bundle', 'leaf', 'checkpoint', 'inclusion', 'seal', 'document']);
  });

  it('verifies the v2 fixture and opens its commitments; media files must be among the committed ones', () => {
    const b = fixture('bundle-v2.json') as CertificateBundle;
    expect(b.format).toBe(BUNDLE_FORMAT);
    const r = verifyBundle(b, {
      key: keys,
      documentSha256: sha('contract 2'),
      media: [sha('video of Jan'), sha('photo of Jan')],
    });
    expect(failing(r)).toEqual([]);
    expect(r.checks.find((c) => c.name === 'commitments')?.detail).toMatch(/2 signer/);
    expect(failing(verifyBundle(b, { key: keys, media: [sha('some other video')] }))).toEqual(['media']);
    // A v2 certificate carries the document name, consent, attestation hash and WebAuthn per signer.
    const s0 = (b.certificate.signers as Record<string, unknown>[])[0]!;
    expect(b.certificate.document_name).toBe('Umowa najmu – 2026.pdf');
    expect(s0).toMatchObject({ webauthn: true, consent_text_version: 'consent-v1', role: 'signer', order: 1 });
  });

  it('refuses an opening that does not give the certified commitment, without touching the leaf', () => {
    const b = fixture('bundle-v2.json') as CertificateBundle;
    const wrongSalt = { ...b, commitment_openings: { ...b.commitment_openings!, salt: 'not the salt' } };
    expect(failing(verifyBundle(wrongSalt, { key: keys }))).toEqual(['commitments']);
    const swapped = structuredClone(b);
    swapped.commitment_openings!.signers[0]!.video_sha256 = sha('another video');
    const r = verifyBundle(swapped, { key: keys });
    expect(failing(r)).toEqual(['commitments']);
    expect(r.checks.find((c) => c.name === 'commitments')?.detail).toMatch(/signers\[0\]\.video_commitment/);
    // Without openings (the public bundle) there is no commitments check, and media cannot be matched.
    const { commitment_openings: _o, ...publicCopy } = b;
    expect(verifyBundle(publicCopy, { key: keys }).ok).toBe(true);
    expect(failing(verifyBundle(publicCopy, { key: keys, media: [sha('video of Jan')] }))).toEqual(['media']);
  });

  it('refuses malformed or misplaced openings and unknown formats as a bad bundle', () => {
    const v1 = fixture('bundle-v1.json');
    const v2 = fixture('bundle-v2.json');
    expect(failing(verifyBundle({ ...v1, commitment_openings: v2.commitment_openings }, { key: keys }))).toEqual(['bundle']);
    expect(
      failing(verifyBundle({ ...v2, commitment_openings: { salt: 's', signers: [{ video_sha256: 'xyz' }] } }, { key: keys })),
    ).toEqual(['bundle']);
    expect(failing(verifyBundle({ ...v2, format: 'signet-certificate-bundle/v3' }, { key: keys }))).toEqual(['bundle']);
  });
});

/** A one-leaf log's bundle of `cert`, signed by `priv` (the checkpoint and the seal). */
function oneLeafBundle(cert: Record<string, unknown>, priv: ReturnType<typeof generateKeyPairSync>['privateKey'], pub: Buffer) {
  const origin = 'signet.example/rotated';
  const leaf = leafHash(certificateLeaf(cert));
  const text = checkpointText(origin, 1, leaf);
  return {
    format: BUNDLE_FORMAT,
    certificate: cert,
    ledger_seal: formatSeal(keyId(origin, pub), 0, sign(null, Buffer.from(sealMessage(origin, 0, leaf)), priv)),
    leaf_index: 0,
    tree_size: 1,
    inclusion_proof: [],
    checkpoint: `${text}\n${signatureLine(origin, pub, sign(null, Buffer.from(text), priv))}`,
  } as CertificateBundle;
}

describe('log key rotation: several keys, each signature picks its key by key id, within the key’s period', () => {
  const pair = () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    return { priv: privateKey, pub: publicKey.export({ format: 'der', type: 'spki' }).subarray(-32) };
  };
  const old = pair();
  const now = pair();
  const served = {
    keys: [
      {
        verifier_key: formatVerifierKey('signet.example/rotated', now.pub),
        not_before: '2026-11-27T09:00:00Z',
        not_after: '',
        current: true,
      },
      {
        verifier_key: formatVerifierKey('signet.example/rotated', old.pub),
        not_before: '2026-01-01T00:00:00Z',
        not_after: '2026-11-27T09:00:00Z',
        current: false,
      },
    ],
  };
  const keys: LogKey[] = parseServedKeys(served);
  const cert = (verifiedAt: string) => ({
    version: 2,
    reference: 'ROT-TX-00000001',
    document_sha256: sha('d'),
    signers: [],
    verified_at: verifiedAt,
  });

  it('reads the served key list with periods (and the single key of a server before rotation)', () => {
    expect(keys.map((k) => [k.keyId.toString('hex'), k.current, k.notAfter?.toISOString() ?? null])).toEqual([
      [keyId('signet.example/rotated', now.pub).toString('hex'), true, null],
      [keyId('signet.example/rotated', old.pub).toString('hex'), false, '2026-11-27T09:00:00.000Z'],
    ]);
    expect(parseServedKeys({ verifier_key: served.keys[0]!.verifier_key })).toHaveLength(1);
    expect(() => parseServedKeys({ keys: [{ verifier_key: served.keys[1]!.verifier_key, not_after: 'yesterday' }] })).toThrow(
      /not_after/,
    );
    expect(() => parseServedKeys({})).toThrow(/verifier_key/);
  });

  it('verifies a certificate sealed and checkpointed by the retired key within its period, and one by the current key', () => {
    expect(failing(verifyBundle(oneLeafBundle(cert('2026-11-27T08:59:00Z'), old.priv, old.pub), { key: keys }))).toEqual([]);
    expect(failing(verifyBundle(oneLeafBundle(cert('2026-11-27T09:30:00Z'), now.priv, now.pub), { key: keys }))).toEqual([]);
    // With only the current key (a verifier that never fetched the list), the old certificate fails.
    const onlyCurrent = parseVerifierKey(served.keys[0]!.verifier_key);
    expect(failing(verifyBundle(oneLeafBundle(cert('2026-11-27T08:59:00Z'), old.priv, old.pub), { key: onlyCurrent }))).toEqual([
      'checkpoint',
      'inclusion',
      'seal',
    ]);
  });

  it('refuses a checkpoint and a seal by the retired key for a certificate verified after the key was retired', () => {
    const r = verifyBundle(oneLeafBundle(cert('2026-11-27T10:00:00Z'), old.priv, old.pub), { key: keys });
    expect(failing(r)).toEqual(['checkpoint', 'inclusion', 'seal']);
    expect(r.checks.find((c) => c.name === 'checkpoint')?.detail).toMatch(
      /outside its key's period.*retired at 2026-11-27T09:00:00.000Z/,
    );
    // No verified_at to place a bounded key's period against: refused too.
    expect(failing(verifyBundle(oneLeafBundle(cert('not a time'), old.priv, old.pub), { key: keys }))).toContain('checkpoint');
  });
});
