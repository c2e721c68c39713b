import { describe, expect, it } from 'vitest';
import { DomainError, notFound } from '@signet/kit';
import type { LedgerHandlers } from '../server.js';
import { selectLog } from './log-select.js';

/** Handlers of one log that know `refs` and name themselves in every answer. */
function fakeLog(name: string, refs: string[]): LedgerHandlers {
  const known = async (reference: string) => {
    if (!refs.includes(reference)) throw notFound('no certificate for this reference');
  };
  return {
    async verifyCertificate(req) {
      await known(req.reference);
      return {
        valid: true,
        reference: req.reference,
        signerName: name,
        issuerName: '',
        verifiedAt: '',
        documentSha256Prefix: '',
        verificationMode: '',
        ledgerSeal: '',
        log: 'live',
      };
    },
    async getCertificate(req) {
      await known(req.reference);
      return { certificateJson: name, ledgerSeal: '', leafIndex: 0 };
    },
    async getProofBundle(req) {
      await known(req.reference);
      return { bundleJson: name };
    },
    async renderCertificatePdf(req) {
      await known(req.reference);
      return { pdf: Buffer.from(name), filename: name };
    },
    getCheckpoint: async () => ({ origin: name, treeSize: 0, rootHash: Buffer.alloc(0), checkpoint: '' }),
    getConsistencyProof: async () => ({
      fromSize: 0,
      toSize: 0,
      fromRoot: Buffer.alloc(0),
      toRoot: Buffer.alloc(0),
      proof: [],
      fromCheckpoint: name,
      toCheckpoint: '',
    }),
    listCheckpoints: async () => ({ checkpoints: [], nextFromSize: name.length }),
    getPublicKey: async () => ({
      origin: name,
      algorithm: 'Ed25519',
      keyId: '',
      verifierKey: '',
      publicKeyPem: '',
      publicKey: Buffer.alloc(0),
    }),
    getSignedPdf: (() => undefined) as unknown as LedgerHandlers['getSignedPdf'],
  };
}

describe('selectLog (test mode: the live log and the test log)', () => {
  const live = fakeLog('live', ['LIV-TX-00000001']);
  const test = fakeLog('test', ['TST-TX-00000002']);
  const both = selectLog(live, test);

  it('finds a reference in the log that holds it and says which', async () => {
    expect(await both.verifyCertificate({ reference: 'LIV-TX-00000001', documentSha256Prefix: '' })).toMatchObject({
      signerName: 'live',
      log: 'live',
    });
    expect(await both.verifyCertificate({ reference: 'TST-TX-00000002', documentSha256Prefix: '' })).toMatchObject({
      signerName: 'test',
      log: 'test',
    });
    expect(
      (await both.getProofBundle({ reference: 'TST-TX-00000002', documentSha256Prefix: '', revealCommitments: false }))
        .bundleJson,
    ).toBe('test');
    await expect(both.getCertificate({ reference: 'NOP-TX-00000003' })).rejects.toBeInstanceOf(DomainError);
  });

  it('serves the log a log RPC names, the live one by default', async () => {
    expect((await both.getPublicKey({ log: 'test' })).origin).toBe('test');
    expect((await both.getPublicKey({ log: '' })).origin).toBe('live');
    expect((await both.getCheckpoint({ log: 'test' })).origin).toBe('test');
    expect((await both.getConsistencyProof({ fromSize: 1, toSize: 1, log: 'test' })).fromCheckpoint).toBe('test');
  });

  it('without a test log: live only, and log=test is NOT_FOUND', async () => {
    const liveOnly = selectLog(live, null);
    await expect(liveOnly.getPublicKey({ log: 'test' })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(liveOnly.verifyCertificate({ reference: 'TST-TX-00000002', documentSha256Prefix: '' })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });
});
