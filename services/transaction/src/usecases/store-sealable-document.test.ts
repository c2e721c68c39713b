import { describe, expect, it } from 'vitest';
import type { DocumentUpload } from '../store/object.store.js';
import { storeSealableDocument } from './store-sealable-document.js';

const good = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
const bad = Buffer.from('%PDF-xxxx\n%%EOF\n');

/** An upload standing in for the object store's: `held` undefined plays a document larger than one part. */
function upload(held: Buffer | undefined) {
  const log: string[] = [];
  const doc = {
    held: () => held,
    finish: async () => {
      log.push('finish');
      return { key: 'k1', sha256: 'h', size: held?.length ?? 0 };
    },
  } as unknown as DocumentUpload;
  return { doc, log };
}

describe('storeSealableDocument', () => {
  it('checks a document held in memory before storing it: a refusal stores nothing and says why', async () => {
    const { doc, log } = upload(bad);
    const reasons: string[] = [];
    const deps = { objects: { readDocument: async () => Buffer.alloc(0) }, refused: (r: string) => void reasons.push(r) };
    await expect(storeSealableDocument(deps, doc)).rejects.toMatchObject({ message: expect.stringMatching(/^document: /) });
    expect(log).toEqual([]);
    expect(reasons).toEqual(['no_version']);
    const ok = upload(good);
    await expect(storeSealableDocument(deps, ok.doc)).resolves.toMatchObject({ key: 'k1' });
    expect(ok.log).toEqual(['finish']);
  });

  it('reads a larger document back after it is stored and refuses it there (the caller removes it)', async () => {
    const { doc, log } = upload(undefined);
    const read: string[] = [];
    const deps = { objects: { readDocument: async (key: string) => (read.push(key), bad) } };
    await expect(storeSealableDocument(deps, doc)).rejects.toMatchObject({ message: expect.stringMatching(/no version/) });
    expect(log).toEqual(['finish']);
    expect(read).toEqual(['k1']);
  });

  it('parses larger documents one at a time', async () => {
    let inFlight = 0;
    let most = 0;
    const deps = {
      objects: {
        readDocument: async () => {
          most = Math.max(most, ++inFlight);
          await new Promise((r) => setTimeout(r, 20));
          inFlight--;
          return good;
        },
      },
    };
    await Promise.all(Array.from({ length: 4 }, () => storeSealableDocument(deps, upload(undefined).doc)));
    expect(most).toBe(1);
  });
});
