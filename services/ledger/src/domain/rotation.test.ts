import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@signet/kit';
import { certificateLeaf, leafHash, parseServedKeys, verifyBundle, BUNDLE_FORMAT } from '@signet/verify';
import { ledgerConfigSchema } from '../config.js';
import { createLogSigner, parseRetiredKeys, parseSigningKey } from './signer.js';

const ORIGIN = 'signet.test/ledger';
const pem = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const base = { GRPC_PORT: '1', OPS_PORT: '2', MONGO_URL: 'mongodb://127.0.0.1:1', NATS_URL: 'nats://127.0.0.1:1' };

/** What GET /api/ledger/public-key serves, from the signer's keys (as the gateway maps them). */
const served = (s: ReturnType<typeof createLogSigner>) => ({
  verifier_key: s.verifierKey,
  keys: s.keys.map((k) => ({ verifier_key: k.verifierKey, not_before: k.notBefore, not_after: k.notAfter, current: k.current })),
});

function oneLeafBundle(s: ReturnType<typeof createLogSigner>, verifiedAt: string) {
  const certificate = { version: 2, reference: 'ROT-TX-00000001', document_sha256: 'a'.repeat(64), verified_at: verifiedAt };
  const leaf = leafHash(certificateLeaf(certificate));
  return {
    format: BUNDLE_FORMAT,
    certificate,
    ledger_seal: s.seal(0, leaf),
    leaf_index: 0,
    tree_size: 1,
    inclusion_proof: [],
    checkpoint: s.checkpoint(1, leaf),
  };
}

describe('log key rotation: the signing key from configuration, retired public keys with their periods', () => {
  const oldPem = pem();
  const old = createLogSigner(parseSigningKey(oldPem), ORIGIN);
  const retired = JSON.stringify([
    { verifier_key: old.verifierKey, not_before: '2026-01-01T00:00:00Z', not_after: '2026-11-27T09:00:00Z' },
  ]);

  it('lists the current key first, then the retired ones with their periods', () => {
    const s = createLogSigner(parseSigningKey(pem()), ORIGIN, {
      retired: parseRetiredKeys(retired, ORIGIN),
      notBefore: new Date('2026-11-27T09:00:00Z'),
    });
    expect(s.keys.map((k) => [k.keyId, k.current, k.notBefore, k.notAfter])).toEqual([
      [s.keyId.toString('hex'), true, '2026-11-27T09:00:00.000Z', ''],
      [old.keyId.toString('hex'), false, '2026-01-01T00:00:00.000Z', '2026-11-27T09:00:00.000Z'],
    ]);
    expect(s.keys[1]!.publicKeyPem).toBe(old.publicKeyPem);
    // The signer signs with the current key only.
    expect(s.checkpoint(1, Buffer.alloc(32))).toContain(`— ${ORIGIN} `);
    expect(createLogSigner(parseSigningKey(oldPem), ORIGIN).keys).toHaveLength(1);
  });

  it('keeps what the retired key signed verifiable offline with the served key list; refuses it after its period', () => {
    const s = createLogSigner(parseSigningKey(pem()), ORIGIN, { retired: parseRetiredKeys(retired, ORIGIN) });
    const keys = parseServedKeys(served(s));
    expect(verifyBundle(oneLeafBundle(old, '2026-11-26T12:00:00Z'), { key: keys }).ok).toBe(true);
    expect(verifyBundle(oneLeafBundle(s, '2026-11-27T12:00:00Z'), { key: keys }).ok).toBe(true);
    const late = verifyBundle(oneLeafBundle(old, '2026-11-27T12:00:00Z'), { key: keys });
    expect(late.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(['checkpoint', 'inclusion', 'seal']);
  });

  it('reads LEDGER_RETIRED_KEYS and LEDGER_SIGNING_KEY_NOT_BEFORE; refuses bad entries naming the variable', () => {
    const cfg = parseConfig(ledgerConfigSchema, {
      ...base,
      LEDGER_SIGNING_KEY: pem(),
      LEDGER_ORIGIN: ORIGIN,
      LEDGER_RETIRED_KEYS: retired,
      LEDGER_SIGNING_KEY_NOT_BEFORE: '2026-11-27T09:00:00Z',
    });
    expect(parseRetiredKeys(cfg.LEDGER_RETIRED_KEYS, ORIGIN)[0]!.publicKey).toEqual(old.publicKey);
    const bad = (v: Record<string, string>) => () =>
      parseConfig(ledgerConfigSchema, { ...base, LEDGER_SIGNING_KEY: pem(), LEDGER_ORIGIN: ORIGIN, ...v });
    expect(bad({ LEDGER_RETIRED_KEYS: 'not json' })).toThrow(/LEDGER_RETIRED_KEYS.*JSON array/s);
    expect(bad({ LEDGER_RETIRED_KEYS: JSON.stringify([{ verifier_key: old.verifierKey }]) })).toThrow(
      /LEDGER_RETIRED_KEYS.*not_after/s,
    );
    const otherLog = createLogSigner(parseSigningKey(pem()), 'other.example/log').verifierKey;
    expect(bad({ LEDGER_RETIRED_KEYS: JSON.stringify([{ verifier_key: otherLog, not_after: '2026-11-27T09:00:00Z' }]) })).toThrow(
      /LEDGER_RETIRED_KEYS.*other\.example\/log/s,
    );
    expect(() =>
      parseConfig(ledgerConfigSchema, {
        ...base,
        LEDGER_SIGNING_KEY: oldPem,
        LEDGER_ORIGIN: ORIGIN,
        LEDGER_RETIRED_KEYS: retired,
      }),
    ).toThrow(/LEDGER_RETIRED_KEYS.*current signing key/s);
    expect(bad({ LEDGER_SIGNING_KEY_NOT_BEFORE: 'tomorrow' })).toThrow(/LEDGER_SIGNING_KEY_NOT_BEFORE/);
  });
});
