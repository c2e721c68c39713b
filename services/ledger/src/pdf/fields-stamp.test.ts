import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { fieldsStamp } from './fields-stamp.js';

const dir = mkdtempSync(join(tmpdir(), 'signet-fields-stamp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function original(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('Agreement', { x: 72, y: 720, size: 18, font });
  // Page two is shown from (100, 50): a field's (0, 0) is that corner.
  const two = doc.addPage([612, 792]);
  two.setCropBox(100, 50, 400, 600);
  two.drawText('Page two', { x: 150, y: 500, size: 12, font });
  return Buffer.from(await doc.save());
}

/** A 200 × 60 RGBA PNG with a wave drawn across it (as the transaction service re-encodes a drawing). */
function signature(): Buffer {
  const [w, h] = [200, 60];
  const raw = Buffer.alloc((w * 4 + 1) * h);
  for (let x = 0; x < w; x++) raw.writeUInt32BE(0x000000ff, Math.round(30 + 20 * Math.sin(x / 15)) * (w * 4 + 1) + 1 + x * 4);
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.from([0, 0, 0, w, 0, 0, 0, h, 8, 6, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Words pdftotext finds with their boxes (points, origin top-left of the crop box), per page. */
function words(pdf: Buffer): { page: number; word: string; xMin: number; yMax: number }[] {
  const path = join(dir, `w-${Math.random()}.pdf`);
  writeFileSync(path, pdf);
  const html = execFileSync('pdftotext', ['-bbox', '-cropbox', path, '-'], { encoding: 'utf8' });
  const out: { page: number; word: string; xMin: number; yMax: number }[] = [];
  let page = 0;
  for (const line of html.split('\n')) {
    if (line.includes('<page ')) page++;
    const m = /<word xMin="([\d.]+)" yMin="[\d.]+" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/.exec(line);
    if (m) out.push({ page, word: m[3]!, xMin: Number(m[1]), yMax: Number(m[2]) });
  }
  return out;
}

describe('fieldsStamp', () => {
  it('draws each value at its place as one incremental update; the original stays byte for byte', async () => {
    const pdf = await original();
    const stamped = await fieldsStamp([
      { places: [{ page: 1, x: 72, y: 500, width: 200, height: 14 }], text: 'Analytical Engines' },
      { places: [{ page: 1, x: 72, y: 100, width: 200, height: 60 }], png: signature() },
      { places: [{ page: 2, x: 20, y: 30, width: 60, height: 12 }], text: 'Ada' },
      { places: [{ page: 2, x: 20, y: 100, width: 14, height: 14 }], checked: true },
      { places: [{ page: 2, x: 200, y: 100, width: 14, height: 14 }], checked: false },
      { places: [{ page: 1, x: 300, y: 60, width: 40, height: 10 }], text: 'טקסט עברי' },
    ])(pdf);
    expect(stamped.subarray(0, pdf.length).equals(pdf)).toBe(true);
    const path = join(dir, 'stamped.pdf');
    writeFileSync(path, stamped);
    expect(execFileSync('qpdf', ['--check', path], { encoding: 'utf8' })).toMatch(/No syntax or stream encoding errors/);
    const w = words(stamped);
    const engines = w.find((x) => x.word === 'Analytical')!;
    expect(engines.page).toBe(1);
    expect(engines.xMin).toBeCloseTo(72, 0);
    // Inside its box: 792 - 500 - 14 = 278 (its top) to 292 (its bottom), from the top of the page.
    expect(engines.yMax).toBeGreaterThan(278);
    expect(engines.yMax).toBeLessThanOrEqual(292 + 1);
    const ada = w.find((x) => x.word === 'Ada')!;
    // Page two's crop box starts at (100, 50) and is 600 high: x 20 → 20, y 30..42 → 558..570 from its top.
    expect(ada.page).toBe(2);
    expect(ada.xMin).toBeCloseTo(20, 0);
    expect(ada.yMax).toBeGreaterThan(558);
    expect(ada.yMax).toBeLessThanOrEqual(571);
    // Right-to-left text is drawn (pdftotext -bbox lists its words in visual order).
    expect(w.filter((x) => /^[\u0590-\u05ff]{4}$/.test(x.word))).toHaveLength(2);
    const images = execFileSync('pdfimages', ['-list', path], { encoding: 'utf8' });
    expect(images.split('\n').filter((l) => /^\s+1\s+\d+\s+image\s+200\s+60/.test(l))).toHaveLength(1);
  });

  it('refuses a place on a page the document does not have', async () => {
    await expect(
      fieldsStamp([{ places: [{ page: 3, x: 0, y: 0, width: 10, height: 10 }], text: 'x' }])(await original()),
    ).rejects.toThrow(/page 3, which the document does not have/);
  });
});
