import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { leafHash, nodeHash } from './merkle.js';
import { checkpointText, parseCheckpoint, signatureLine } from './note.js';
import { checkConsistentWithRemembered, rememberCheckpoint } from './state.js';
import {
  checkWitnessQuorum,
  cosignatureMessage,
  formatWitnessKey,
  parseWitnessKey,
  verifyCosignature,
  witnessKeyId,
  witnessPolicy,
} from './witness.js';

const rawPublic = (k: KeyObject) => k.export({ format: 'der', type: 'spki' }).subarray(12);

function witness(name: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const vkey = formatWitnessKey(name, rawPublic(publicKey));
  /** The signature line a tlog-witness returns for this checkpoint text at `time`. */
  const cosign = (text: string, time = 1_764_000_000) => {
    const ts = Buffer.alloc(8);
    ts.writeBigUInt64BE(BigInt(time));
    const sig = sign(null, cosignatureMessage(text, time), privateKey);
    return `\u2014 ${name} ${Buffer.concat([witnessKeyId(name, rawPublic(publicKey)), ts, sig]).toString('base64')}\n`;
  };
  return { vkey, cosign };
}

const log = generateKeyPairSync('ed25519');
const logPub = rawPublic(log.publicKey);
const leaves = [0, 1, 2].map((i) => leafHash(Buffer.from(`leaf ${i}`)));
const root2 = nodeHash(leaves[0]!, leaves[1]!);
const root3 = nodeHash(root2, leaves[2]!);
const text = (size: number, root: Buffer) => checkpointText('signet.test/ledger', size, root);
const logSigned = (t: string) =>
  `${t}\n${signatureLine('signet.test/ledger', logPub, sign(null, Buffer.from(t), log.privateKey))}`;

describe('witness cosignatures (c2sp.org/tlog-cosignature)', () => {
  const a = witness('witness.test/a');
  const b = witness('witness.test/b');
  const t3 = text(3, root3);
  const note = logSigned(t3) + a.cosign(t3);

  it('parses a cosignature/v1 verifier key and refuses an Ed25519 note key or a wrong key id', () => {
    expect(parseWitnessKey(a.vkey).name).toBe('witness.test/a');
    expect(() => parseWitnessKey(a.vkey.replace(/\+[0-9a-f]{8}\+/, '+00000000+'))).toThrow(/key id/);
    const noteKey = `x+${'0'.repeat(8)}+${Buffer.concat([Buffer.from([1]), logPub]).toString('base64')}`;
    expect(() => parseWitnessKey(noteKey)).toThrow(/cosignature/);
  });

  it('verifies a cosignature over the checkpoint and returns its time; refuses another key, text or time', () => {
    expect(verifyCosignature(note, parseWitnessKey(a.vkey))).toBe(1_764_000_000);
    expect(verifyCosignature(note, parseWitnessKey(b.vkey))).toBeNull();
    expect(verifyCosignature(note.replace('\n3\n', '\n4\n'), parseWitnessKey(a.vkey))).toBeNull();
    // The time is signed: moving it breaks the signature.
    const line = a.cosign(t3);
    const raw = Buffer.from(line.trim().split(' ')[2]!, 'base64');
    raw.writeBigUInt64BE(1_764_000_001n, 4);
    const moved = `\u2014 witness.test/a ${raw.toString('base64')}\n`;
    expect(verifyCosignature(logSigned(t3) + moved, parseWitnessKey(a.vkey))).toBeNull();
    // The lines a witness answers, checked against the note they are for.
    expect(verifyCosignature(logSigned(t3), parseWitnessKey(a.vkey), a.cosign(t3))).toBe(1_764_000_000);
  });

  it('counts the quorum over distinct configured witnesses', () => {
    expect(checkWitnessQuorum(note, witnessPolicy([a.vkey, b.vkey], 1))).toMatchObject({
      ok: true,
      cosigned: ['witness.test/a'],
    });
    expect(checkWitnessQuorum(note, witnessPolicy([a.vkey, b.vkey]))).toMatchObject({ ok: false, quorum: 2 });
    expect(checkWitnessQuorum(note + b.cosign(t3), witnessPolicy([a.vkey, b.vkey])).ok).toBe(true);
    expect(() => witnessPolicy([a.vkey], 2)).toThrow(/quorum/);
  });
});

describe('consistency with a remembered checkpoint', () => {
  const cp3 = parseCheckpoint(text(3, root3));
  const remembered2 = rememberCheckpoint(parseCheckpoint(text(2, root2)), logSigned(text(2, root2)));
  const proof = { from: 2, to: 3, proof: [leaves[2]!.toString('base64')] };

  it('accepts a later checkpoint with a valid proof, and the same one again', () => {
    expect(checkConsistentWithRemembered(remembered2, cp3, proof).ok).toBe(true);
    expect(checkConsistentWithRemembered(rememberCheckpoint(cp3, ''), cp3, undefined).ok).toBe(true);
    // An older checkpoint than the remembered one, proved the other way round.
    expect(checkConsistentWithRemembered(rememberCheckpoint(cp3, ''), parseCheckpoint(text(2, root2)), proof).ok).toBe(true);
  });

  it('refuses a later checkpoint whose history differs, one without a proof, and another root at the same size', () => {
    const forked = nodeHash(leaves[0]!, leafHash(Buffer.from('another leaf 1')));
    const forkedMemory = rememberCheckpoint(parseCheckpoint(text(2, forked)), '');
    expect(checkConsistentWithRemembered(forkedMemory, cp3, proof)).toMatchObject({ ok: false, detail: /NOT consistent/ });
    expect(checkConsistentWithRemembered(remembered2, cp3, undefined)).toMatchObject({ ok: false, detail: /from=2&to=3/ });
    expect(checkConsistentWithRemembered(forkedMemory, parseCheckpoint(text(2, root2)), undefined)).toMatchObject({
      ok: false,
      detail: /two histories/,
    });
    expect(checkConsistentWithRemembered(remembered2, cp3, { ...proof, from: 1 }).ok).toBe(false);
  });
});
