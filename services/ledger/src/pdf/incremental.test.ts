import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { withIncrementalUpdate } from './incremental.js';

const dir = mkdtempSync(join(tmpdir(), 'signet-incremental-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function original(useObjectStreams: boolean): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([300, 200]).drawText('Original page one', { x: 20, y: 100, size: 12, font });
  doc.addPage([300, 200]).drawText('Original page two', { x: 20, y: 100, size: 12, font });
  return Buffer.from(await doc.save({ useObjectStreams }));
}

/** qpdf's structural check and the text pdftotext reads, page by page. */
function outside(pdf: Buffer, name: string) {
  const path = join(dir, name);
  writeFileSync(path, pdf);
  const check = execFileSync('qpdf', ['--check', path], { encoding: 'utf8' });
  const pages = Number(execFileSync('qpdf', ['--show-npages', path], { encoding: 'utf8' }).trim());
  const text = execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' });
  return { check, pages, text };
}

const addPage = (label: string) => async (doc: PDFDocument) => {
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([300, 200]).drawText(label, { x: 20, y: 100, size: 12, font });
};

/** The object numbers an update section's xref table lists. */
function listed(update: string): number[] {
  const table = update.slice(update.lastIndexOf('\nxref\n') + 6, update.lastIndexOf('trailer'));
  const out: number[] = [];
  const lines = table.split('\n').filter((l) => l.trim());
  for (let i = 0; i < lines.length;) {
    const [first, count] = lines[i]!.split(' ').map(Number) as [number, number];
    for (let k = 0; k < count; k++) out.push(first + k);
    i += count + 1;
  }
  return out;
}

describe('incremental updates: the original bytes first, unchanged, then only what changed', () => {
  for (const useObjectStreams of [false, true]) {
    it(`appends a page to a PDF with ${useObjectStreams ? 'object streams and an xref stream' : 'a classic xref table'}`, async () => {
      const before = await original(useObjectStreams);
      const after = await withIncrementalUpdate(before, addPage('Appended page'));
      expect(after.subarray(0, before.length).equals(before)).toBe(true);
      const o = outside(after, `page-${useObjectStreams}.pdf`);
      expect(o.check).toContain('No syntax or stream encoding errors');
      expect(o.pages).toBe(3);
      expect(o.text).toMatch(/Original page one[\s\S]*Original page two[\s\S]*Appended page/);
      // Only the new page, its content stream and font, and the page tree node that lists it.
      const update = after.subarray(before.length).toString('latin1');
      const numbers = listed(update);
      expect(numbers.length).toBeLessThanOrEqual(5);
      expect(update).toMatch(/\/Prev \d+/);
      // New objects are numbered above every number the original declares (its object and xref streams included).
      const size = Math.max(...[...before.toString('latin1').matchAll(/\/Size (\d+)/g)].map((m) => Number(m[1])));
      const pagesRef = (await PDFDocument.load(before)).catalog.get(PDFName.of('Pages'))!.toString();
      const fresh = numbers.filter((n) => `${n} 0 R` !== pagesRef);
      expect(Math.min(...fresh)).toBeGreaterThanOrEqual(size);
    });
  }

  it('stacks updates (each keeps every byte before it), and an original without a final end of line gets one', async () => {
    const noEol = (await original(true)).subarray(0, -1);
    expect(noEol.at(-1)).not.toBe(0x0a);
    const one = await withIncrementalUpdate(noEol, addPage('First update'));
    expect(one.subarray(0, noEol.length).equals(noEol)).toBe(true);
    expect(one[noEol.length]).toBe(0x0a);
    const two = await withIncrementalUpdate(one, async (doc) => {
      doc.catalog.set(PDFName.of('Lang'), doc.context.obj('pl'));
    });
    expect(two.subarray(0, one.length).equals(one)).toBe(true);
    expect(listed(two.subarray(one.length).toString('latin1'))).toHaveLength(1); // the catalog only
    const o = outside(two, 'stacked.pdf');
    expect(o.check).toContain('No syntax or stream encoding errors');
    expect(o.pages).toBe(3);
  });

  it('indexes every object when the original has no cross-reference section to chain to', async () => {
    // What a hand-made PDF looks like: no xref, no startxref (pdf-lib, and readers, open it by scanning).
    const bare = Buffer.from(
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    );
    const after = await withIncrementalUpdate(bare, addPage('Appended page'));
    expect(after.subarray(0, bare.length).equals(bare)).toBe(true);
    const update = after.subarray(bare.length).toString('latin1');
    expect(update).not.toContain('/Prev');
    expect(listed(update)).toEqual(expect.arrayContaining([0, 1, 2]));
    const o = outside(after, 'bare.pdf');
    expect(o.check).toContain('No syntax or stream encoding errors');
    expect(o.check).not.toMatch(/WARNING|damaged/i);
    expect(o.pages).toBe(1);
    expect(o.text).toContain('Appended page');
  });

  it('refuses an update that changes nothing', async () => {
    await expect(withIncrementalUpdate(await original(false), async () => undefined)).rejects.toThrow(/nothing to append/);
  });
});
