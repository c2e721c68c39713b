import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { fieldsStamp, parseStampedFields } from '../pdf/fields-stamp.js';
import { filledDocumentSha256 } from './filled-document-hash.js';

async function original(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('Agreement', { x: 72, y: 720, size: 18, font });
  return Buffer.from(await doc.save());
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const fields = (company: string) =>
  JSON.stringify([
    { places: [{ page: 1, x: 72, y: 100, width: 200, height: 20 }], text: company },
    { places: [{ page: 1, x: 72, y: 60, width: 14, height: 14 }], checked: true },
  ]);

describe('the filled document’s hash (issue 33)', () => {
  it('is the hash of the original with the values stamped as the sealing job stamps them, and changes with a value', async () => {
    const pdf = await original();
    const errors: unknown[] = [];
    const deps = {
      objects: { readDocument: async (key: string) => (key === 'doc' ? pdf : Buffer.alloc(0)) },
      logger: { error: (o: unknown) => void errors.push(o) },
    };
    const hash = await filledDocumentSha256(deps, 'doc', fields('Analytical Engines'));
    // What the sealing job appends after revision 1 (signed-pdf.ts fieldUpdates), done again later: the same bytes.
    const sealed = await fieldsStamp(parseStampedFields(fields('Analytical Engines')))(pdf);
    expect(sealed.subarray(0, pdf.length).equals(pdf)).toBe(true);
    expect(hash).toBe(sha(sealed));
    expect(hash).not.toBe(sha(pdf));
    expect(await filledDocumentSha256(deps, 'doc', fields('Analytical Engines Ltd'))).not.toBe(hash);
    expect(errors).toEqual([]);
  });

  it('gives none (logged) for values that cannot be stamped, and throws when the document cannot be read', async () => {
    const pdf = await original();
    const errors: unknown[] = [];
    const logger = { error: (o: unknown) => void errors.push(o) };
    const onPage9 = JSON.stringify([{ places: [{ page: 9, x: 1, y: 1, width: 10, height: 10 }], text: 'x' }]);
    expect(await filledDocumentSha256({ objects: { readDocument: async () => pdf }, logger }, 'doc', onPage9)).toBeUndefined();
    expect(errors).toHaveLength(1);
    const unreadable = { objects: { readDocument: async () => Promise.reject(new Error('S3 is down')) }, logger };
    await expect(filledDocumentSha256(unreadable, 'doc', fields('A'))).rejects.toThrow('S3 is down');
  });
});
