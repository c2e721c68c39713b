import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkpointText,
  cosignatureMessage,
  formatWitnessKey,
  parseWitnessKey,
  signatureLine,
  witnessKeyId,
} from '@signet/verify';
import { TsaUnavailableError } from '../tsa/tsa.client.js';
import type { SignedPdfRecord } from '../store/signed-pdf.repository.js';
import { MAX_FAILED_ATTEMPTS, sealSignedPdfs, type SealSignedPdfsDeps } from './seal-signed-pdfs.js';

/** One due record whose attempt fails with `err` at its `attempts`-th try; what the pass did with it. */
async function attempt(err: Error, attempts: number) {
  const rec = { reference: 'R', transaction_id: 7, attempts, document_key: 'k' } as SignedPdfRecord;
  let claimed = false;
  const did: string[] = [];
  const results: string[] = [];
  const deps = {
    signedPdfs: {
      claimDue: async () => (claimed ? null : ((claimed = true), rec)),
      retryAt: async () => void did.push('retry'),
      markSealed: async () => void did.push('sealed'),
      markFailed: async (_r: unknown, failure: string) => (did.push(`failed: ${failure}`), true),
    },
    certs: { findByReference: async () => ({ leaf_index: 0, document_sha256: 'x' }) },
    log: {
      head: async () => ({ size: 1 }),
      bundle: async () => {
        throw err;
      },
    },
    metrics: { signedPdfSeals: { inc: (l: { result: string }) => void results.push(l.result) } },
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    now: () => new Date(0),
    retryMs: 1000,
  } as unknown as SealSignedPdfsDeps;
  await sealSignedPdfs(deps);
  return { did, results };
}

describe('sealSignedPdfs: when a PDF is given up', () => {
  it('retries a failing attempt until the last allowed one, then gives up with a reason and counts it failed', async () => {
    expect(await attempt(new Error('store hiccup'), 0)).toEqual({ did: ['retry'], results: ['error'] });
    expect(await attempt(new Error('store hiccup'), MAX_FAILED_ATTEMPTS - 2)).toEqual({ did: ['retry'], results: ['error'] });
    expect(await attempt(new Error('store hiccup'), MAX_FAILED_ATTEMPTS - 1)).toEqual({
      did: [`failed: sealing failed ${MAX_FAILED_ATTEMPTS} times in a row`],
      results: ['failed'],
    });
  });

  it('never gives up while no TSA answers: a trusted time comes back, the document is fine', async () => {
    expect(await attempt(new TsaUnavailableError(['tsa.example: refused']), 500)).toEqual({
      did: ['retry'],
      results: ['tsa_unavailable'],
    });
  });
});

const rawPublic = (k: KeyObject) => k.export({ format: 'der', type: 'spki' }).subarray(12);

describe('sealSignedPdfs: the embedded checkpoint carries the witnesses the policy requires', () => {
  const log = generateKeyPairSync('ed25519');
  const text = checkpointText('signet.test/ledger', 1, Buffer.alloc(32, 7));
  const note = `${text}\n${signatureLine('signet.test/ledger', rawPublic(log.publicKey), sign(null, Buffer.from(text), log.privateKey))}`;
  const witness = (name: string) => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const ts = Buffer.alloc(8);
    ts.writeBigUInt64BE(1_764_000_000n);
    const sig = sign(null, cosignatureMessage(text, 1_764_000_000), privateKey);
    const line = `\u2014 ${name} ${Buffer.concat([witnessKeyId(name, rawPublic(publicKey)), ts, sig]).toString('base64')}\n`;
    return { key: parseWitnessKey(formatWitnessKey(name, rawPublic(publicKey))), line };
  };
  const [a, b] = [witness('witness.test/a'), witness('witness.test/b')];

  /** One due record whose bundle's checkpoint is `checkpoint`; reading the document fails (the attempt went on). */
  async function pass(checkpoint: string, quorum: number) {
    const rec = { reference: 'R', transaction_id: 7, attempts: 3, document_key: 'k' } as SignedPdfRecord;
    let claimed = false;
    const did: string[] = [];
    const results: string[] = [];
    const deps = {
      signedPdfs: {
        claimDue: async () => (claimed ? null : ((claimed = true), rec)),
        retryAt: async (_r: string, at: Date, attempts: number) => void did.push(`retry at ${at.getTime()} attempts ${attempts}`),
        markSealed: async () => void did.push('sealed'),
        markFailed: async () => true,
      },
      certs: { findByReference: async () => ({ leaf_index: 0, document_sha256: 'x' }) },
      log: { head: async () => ({ size: 1 }), bundle: async () => ({ checkpoint, leaf_index: 0, tree_size: 1 }) },
      objects: {
        readDocument: async () => {
          throw new Error('went on to read the document');
        },
      },
      witnesses: { witnesses: [a.key, b.key], quorum },
      metrics: { signedPdfSeals: { inc: (l: { result: string }) => void results.push(l.result) } },
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
      now: () => new Date(0),
      retryMs: 1000,
    } as unknown as SealSignedPdfsDeps;
    await sealSignedPdfs(deps);
    return { did, results };
  }

  it('waits (not an attempt) while the checkpoint lacks the quorum, and seals once it has it', async () => {
    expect(await pass(note, 2)).toEqual({ did: ['retry at 2000 attempts 3'], results: ['awaiting_witnesses'] });
    expect(await pass(note + a.line, 2)).toEqual({ did: ['retry at 2000 attempts 3'], results: ['awaiting_witnesses'] });
    // a cosignature line by a key of the same name that is not the configured one does not count
    expect(await pass(note + a.line + witness('witness.test/b').line, 2)).toMatchObject({ results: ['awaiting_witnesses'] });
    expect(await pass(note + a.line + b.line, 2)).toMatchObject({ results: ['error'] });
    expect(await pass(note + b.line, 1)).toMatchObject({ results: ['error'] });
  });

  it('does not wait without witnesses (quorum 0)', async () => {
    expect(await pass(note, 0)).toMatchObject({ results: ['error'] });
  });
});
