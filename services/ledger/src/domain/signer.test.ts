import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  BUNDLE_FORMAT,
  certificateLeaf,
  keyId,
  parseCheckpoint,
  parseNote,
  parseVerifierKey,
  signatureLine,
  verifyBundle,
  verifyCheckpoint,
  verifyNote,
  type CertificateBundle,
} from '@signet/verify';
import { Frontier, inclusionRanges, leafHash, nodeKey, rangeHash, type NodeId } from './merkle.js';
import { createLogSigner, parseSigningKey } from './signer.js';

const ORIGIN = 'signet.test/ledger';
const pem = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

function certificate(i: number) {
  return {
    version: 1,
    reference: `TST-TX-${String(i).padStart(8, '0')}`,
    document_sha256: leafHash(Buffer.from(`doc ${i}`)).toString('hex'),
    issuer_name: 'Acme Ltd – Zürich',
    attestation_type: 'signature',
    signers: [
      {
        name: `Signer ${i}`,
        email_masked: 's***@example.com',
        verification_mode: 'biometric',
        verified_at: '2026-11-25T10:00:00.000Z',
      },
    ],
    verified_at: '2026-11-25T10:00:00.000Z',
  };
}

/** A log of `n` certificates and the bundle of leaf `index`, signed by `signer`. */
function bundleFor(signer: ReturnType<typeof createLogSigner>, n: number, index: number): CertificateBundle {
  const certs = Array.from({ length: n }, (_, i) => certificate(i));
  const store = new Map<number, Buffer>();
  const f = Frontier.empty();
  for (const c of certs) for (const node of f.append(leafHash(certificateLeaf(c)))) store.set(nodeKey(node), node.hash);
  const get = (id: NodeId) => store.get(nodeKey(id))!;
  return {
    format: BUNDLE_FORMAT,
    certificate: certs[index]!,
    ledger_seal: signer.seal(index, leafHash(certificateLeaf(certs[index]))),
    leaf_index: index,
    tree_size: n,
    inclusion_proof: inclusionRanges(index, n).map((r) => rangeHash(r, get).toString('base64')),
    checkpoint: signer.checkpoint(n, f.root()),
  };
}

describe('the log key, checkpoints and the certificate bundle', () => {
  const signer = createLogSigner(parseSigningKey(pem()), ORIGIN);
  const key = parseVerifierKey(signer.verifierKey);
  const b = bundleFor(signer, 11, 6);
  const doc = b.certificate.document_sha256;

  it('reads the key as PEM or as a base64 seed, and names it per the signed-note spec', () => {
    const seed = randomBytes(32);
    const a = createLogSigner(parseSigningKey(seed.toString('base64')), ORIGIN);
    const c = createLogSigner(parseSigningKey(seed.toString('base64url')), ORIGIN);
    expect(a.verifierKey).toBe(c.verifierKey);
    const der = generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' });
    expect(createLogSigner(parseSigningKey(der.toString('base64')), ORIGIN).publicKey).toHaveLength(32);
    expect(() => parseSigningKey('too short')).toThrow(/Ed25519/);
    expect(() => parseSigningKey(Buffer.alloc(40).toString('base64'))).toThrow();
    expect(() =>
      parseSigningKey(generateKeyPairSync('x25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString()),
    ).toThrow();
    expect(signer.keyId).toEqual(keyId(ORIGIN, signer.publicKey));
    expect(signer.verifierKey).toMatch(new RegExp(`^${ORIGIN}\\+${signer.keyId.toString('hex')}\\+[A-Za-z0-9+/]{44}$`));
  });

  it('matches the signed-note reference example (golang.org/x/mod/sumdb/note) byte for byte', () => {
    const seed = Buffer.from('AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz', 'base64').subarray(1);
    const key = parseSigningKey(seed.toString('base64'));
    const peter = createLogSigner(key, 'PeterNeumann');
    expect(peter.verifierKey).toBe('PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW');
    const text = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
    const line =
      '\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';
    expect(signatureLine('PeterNeumann', peter.publicKey, sign(null, Buffer.from(text), key))).toBe(line);
    expect(verifyNote(`${text}\n${line}`, parseVerifierKey(peter.verifierKey))).toBe(text);
  });

  it('parses a verifier key whose base64 part contains "+"', () => {
    let s = signer;
    while (s.verifierKey.split('+').length <= 3) s = createLogSigner(parseSigningKey(randomBytes(32).toString('base64')), ORIGIN);
    expect(parseVerifierKey(s.verifierKey).publicKey).toEqual(s.publicKey);
  });

  it('writes a C2SP checkpoint as a signed note', () => {
    const note = b.checkpoint;
    const parsed = parseNote(note);
    expect(parsed.text).toMatch(new RegExp(`^${ORIGIN}\\n11\\n[A-Za-z0-9+/]{43}=\\n$`));
    expect(note.split('\n')[4]).toMatch(new RegExp(`^\u2014 ${ORIGIN} [A-Za-z0-9+/]+=*$`));
    expect(parsed.signatures[0]!.keyId).toEqual(signer.keyId);
    expect(parseCheckpoint(parsed.text).size).toBe(11);
    expect(verifyCheckpoint(note, key)?.size).toBe(11);
    expect(signer.seal(6, Buffer.alloc(32)).length).toBeLessThanOrEqual(200);
  });

  it('verifies a whole bundle with the document hash', () => {
    const r = verifyBundle(b, { key, documentSha256: doc });
    expect(r.checks.map((c) => [c.name, c.ok])).toEqual([
      ['bundle', true],
      ['leaf', true],
      ['checkpoint', true],
      ['inclusion', true],
      ['seal', true],
      ['document', true],
    ]);
    expect(r.ok).toBe(true);
  });

  const failing = (value: unknown, documentSha256 = doc, k = key) =>
    verifyBundle(value, { key: k, documentSha256 })
      .checks.filter((c) => !c.ok)
      .map((c) => c.name);

  it('rejects a tampered certificate', () => {
    expect(failing({ ...b, certificate: { ...b.certificate, issuer_name: 'Evil Ltd' } })).toEqual(['inclusion', 'seal']);
  });
  it('rejects a wrong leaf index', () => {
    expect(failing({ ...b, leaf_index: 7 })).toEqual(['inclusion', 'seal']);
  });
  it('rejects a truncated proof', () => {
    expect(failing({ ...b, inclusion_proof: b.inclusion_proof.slice(0, -1) })).toEqual(['inclusion']);
  });
  it('rejects a checkpoint signed by another key, even for the same origin and tree', () => {
    const other = createLogSigner(parseSigningKey(pem()), ORIGIN);
    const forged = bundleFor(other, 11, 6);
    expect(forged.checkpoint.split('\n').slice(0, 3)).toEqual(b.checkpoint.split('\n').slice(0, 3));
    expect(failing(forged)).toEqual(['checkpoint', 'inclusion', 'seal']);
    // And the other key's own verifier rejects ours.
    expect(failing(b, doc, parseVerifierKey(other.verifierKey))).toEqual(['checkpoint', 'inclusion', 'seal']);
  });
  it('rejects a checkpoint whose text was edited after signing', () => {
    const lines = b.checkpoint.split('\n');
    lines[1] = '12';
    expect(failing({ ...b, checkpoint: lines.join('\n') })).toContain('checkpoint');
  });
  it('rejects another document', () => {
    expect(failing(b, leafHash(Buffer.from('other')).toString('hex'))).toEqual(['document']);
  });
  it('rejects a malformed bundle and a bad verifier key', () => {
    expect(failing({ ...b, format: 'x' })).toEqual(['bundle']);
    expect(failing({ ...b, leaf_index: -1 })).toEqual(['bundle']);
    expect(() => parseVerifierKey(signer.verifierKey.replace(/\+[0-9a-f]{8}\+/, '+00000000+'))).toThrow(/key id/);
  });
});
