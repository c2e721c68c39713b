import { describe, expect, it } from 'vitest';
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
